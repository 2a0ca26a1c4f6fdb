// The run list: one row per top-level run in the directory, newest first.
(() => {
  window.Reclamo = window.Reclamo || {};
  const R = window.Reclamo;
  const { h } = R;

  R.renderList = async (container, source) => {
    const data = await source.list();
    const rows = data.runs.map((run) => {
      const ending = R.endingLabel(run.ending);
      const href = `#/run/${encodeURIComponent(run.file)}`;
      return h(
        'tr',
        { class: 'run-row', 'data-file': run.file, onclick: () => (location.hash = href) },
        h(
          'td',
          { class: 'nowrap muted' },
          R.when(run.startedAt, true) || R.when(new Date(run.modifiedMs).toISOString(), true),
        ),
        h('td', { class: 'question' }, h('a', { href }, run.question || '(no question recorded)')),
        h(
          'td',
          { class: 'answer' },
          run.answer === null ? h('span', { class: 'muted' }, '—') : run.answer,
        ),
        h(
          'td',
          {},
          R.badge(ending.text, ending.tone),
          run.issues ? R.badge(`${run.issues} bad line${run.issues > 1 ? 's' : ''}`, 'bad') : null,
        ),
        h('td', { class: 'n' }, R.num(run.turns)),
        h('td', { class: 'n' }, R.num(run.subcalls)),
        h('td', { class: 'n' }, R.num(run.tokens)),
        h('td', { class: 'n nowrap' }, R.ms(run.ms)),
        h('td', { class: 'muted' }, run.format === 'upstream' ? 'upstream' : ''),
      );
    });
    R.replace(
      container,
      h('h1', {}, 'Runs'),
      h(
        'p',
        { class: 'muted' },
        `${data.dir} · ${data.runs.length} run${data.runs.length === 1 ? '' : 's'}`,
      ),
      data.runs.length === 0
        ? h(
            'p',
            { class: 'empty' },
            'No trajectories here yet. Runs write runs/<stamp>-<id>.jsonl; pass another directory or file to reclamo view.',
          )
        : h(
            'table',
            { class: 'runs' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                [
                  'Started',
                  'Question',
                  'Answer',
                  'Ended',
                  'Turns',
                  'Sub-calls',
                  'Tokens',
                  'Time',
                  '',
                ].map((t) => h('th', {}, t)),
              ),
            ),
            h('tbody', {}, rows),
          ),
      data.skipped.length > 0
        ? h(
            'p',
            { class: 'muted small' },
            `Not listed: ${data.skipped.map((s) => `${s.file} (${s.reason})`).join(', ')}`,
          )
        : null,
    );
  };
})();

// A run's page: question, answer and how it ended, totals, the timeline strip
// and the timeline rows. Rows are grouped in pages whose details load when
// they come near the screen, so a 5,000-turn run opens as fast as a short one.
(() => {
  window.Reclamo = window.Reclamo || {};
  const R = window.Reclamo;
  const { h } = R;
  const PAGE = 25;

  function stat(label, ...value) {
    return h(
      'div',
      { class: 'stat' },
      h('div', { class: 'stat-label' }, label),
      h('div', { class: 'stat-value' }, value),
    );
  }

  function timeSplit(time) {
    const parts = [
      ['model', time.modelMs],
      ['REPL', time.replMs],
      ['harness', time.harnessMs],
    ].filter(([, v]) => v !== null);
    const sum = parts.reduce((a, [, v]) => a + v, 0);
    const bar = h(
      'div',
      { class: 'split-bar' },
      parts.map(([k, v]) =>
        sum > 0 && v > 0
          ? h('span', {
              class: `seg seg-${k.toLowerCase()}`,
              style: `width:${(v / sum) * 100}%`,
              title: `${k} ${R.ms(v)}`,
            })
          : null,
      ),
    );
    const total =
      time.totalMs !== null ? R.ms(time.totalMs) : sum > 0 ? `${R.ms(sum)} (sum of turns)` : '—';
    return [
      total,
      h('div', {}, parts.map(([k, v]) => `${k} ${R.ms(v)}`).join(' · ')),
      sum > 0 ? bar : null,
    ];
  }

  function headerView(header, source, options) {
    const ending = R.endingLabel(header.ending);
    const kinds = Object.entries(header.subcallsByKind).map(([k, n]) => `${k} ${R.num(n)}`);
    const endpoints = header.endpoints.map((e) =>
      h(
        'div',
        {},
        h('code', {}, e.baseUrl || '(none)'),
        ` ${e.roles.join(', ')}${e.api ? ` · ${e.api}` : ''}${e.concurrency ? ` · concurrency ${e.concurrency}` : ''}`,
      ),
    );
    const Title = options.nested ? 'h2' : 'h1';
    return h(
      'section',
      { class: 'run-header' },
      h(
        Title,
        { class: 'question' },
        R.boundedText(header.question.text || '(no question recorded)', {
          limit: 600,
          fullChars: header.question.chars,
          className: 'question-text',
        }),
      ),
      h(
        'div',
        { class: `answer-box ${ending.tone}` },
        h('div', { class: 'answer-label' }, 'Answer ', R.badge(ending.text, ending.tone)),
        header.answer
          ? R.boundedText(header.answer.text, {
              limit: 1500,
              fullChars: header.answer.chars,
              className: 'answer-text',
            })
          : h('div', { class: 'muted' }, 'No answer recorded.'),
        header.ending.error ? h('div', { class: 'exec-error' }, header.ending.error) : null,
      ),
      header.issues.length
        ? h(
            'div',
            { class: 'issues-banner' },
            `${header.issues.length} line${header.issues.length > 1 ? 's' : ''} of this file could not be read (line ${header.issues.map((i) => i.line).join(', ')}); they are marked in place and the rest is shown.`,
          )
        : null,
      h(
        'div',
        { class: 'stats' },
        stat('Turns', R.num(header.counts.turns)),
        stat(
          'Sub-calls',
          R.num(header.counts.subcalls),
          kinds.length ? h('div', { class: 'small muted' }, kinds.join(' · ')) : null,
        ),
        header.counts.children
          ? stat(
              'Child RLMs',
              R.num(header.counts.children),
              header.counts.childTurns !== undefined
                ? h(
                    'div',
                    { class: 'small muted' },
                    `${R.num(header.counts.childTurns)} turns inside them`,
                  )
                : null,
            )
          : null,
        stat('Root tokens', R.tokens(header.tokens.root)),
        stat('Sub-call tokens', R.tokens(header.tokens.sub)),
        stat('Time', timeSplit(header.time)),
        stat('Model', header.model || '—', endpoints),
        stat(
          'Run',
          h(
            'div',
            {},
            `${header.format === 'upstream' ? 'upstream RLM log' : `reclamo v${header.version ?? '?'}`}${header.runId ? ` · ${header.runId}` : ''}`,
          ),
          h(
            'div',
            { class: 'small muted' },
            `${R.when(header.startedAt, true)} · depth ${header.depth}${header.maxDepth !== undefined ? ` of max ${header.maxDepth}` : ''} · ${source.name}`,
          ),
        ),
      ),
      header.settings.length
        ? R.lazyDetails('Settings', () =>
            h(
              'table',
              { class: 'settings' },
              header.settings.map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, v))),
            ),
          )
        : null,
    );
  }

  function estimate(entry) {
    if (entry.kind !== 'turn') return 70;
    return 120 + entry.blocks * 140 + Math.min(entry.subcalls, 12) * 26;
  }

  /** Renders a run into `container`; resolves when the first page of rows is on screen. */
  R.renderRun = async (container, source, options) => {
    const o = options || {};
    const header = await source.header();
    const ctx = { source, depth: o.depth || 0 };
    const timeline = header.timeline;
    const list = h('div', { class: 'entries' });
    const pages = [];
    for (let from = 0; from < timeline.length; from += PAGE) {
      const to = Math.min(timeline.length, from + PAGE);
      let px = 0;
      for (let i = from; i < to; i++) px += estimate(timeline[i]);
      const el = h('div', { class: 'page pending', style: `min-height:${px}px` });
      pages.push({ from, to, el, loading: null });
      list.append(el);
    }

    const loadPage = (page) => {
      if (page.loading) return page.loading;
      page.loading = (async () => {
        const slice = timeline.slice(page.from, page.to);
        const details = slice.some((e) => e.kind === 'turn')
          ? await source.details(page.from, page.to)
          : [];
        const rows = slice.map((entry, i) =>
          entry.kind === 'turn' ? R.renderTurn(entry, details[i], ctx) : R.renderPlainEntry(entry),
        );
        rows.forEach((row, i) => {
          row.dataset.index = String(page.from + i);
        });
        R.replace(page.el, ...rows);
        page.el.classList.remove('pending');
        page.el.style.minHeight = '';
        observer.unobserve(page.el);
      })().catch((error) => {
        page.loading = null;
        R.replace(
          page.el,
          h(
            'p',
            { class: 'error' },
            `Could not load rows ${page.from + 1}–${page.to}: ${error.message}`,
          ),
        );
      });
      return page.loading;
    };

    const observer = new IntersectionObserver(
      (seen) => {
        for (const item of seen) {
          if (!item.isIntersecting) continue;
          const page = pages.find((p) => p.el === item.target);
          if (page) loadPage(page);
        }
      },
      { rootMargin: '1500px 0px' },
    );

    const jumpTo = async (index) => {
      const page = pages[Math.floor(index / PAGE)];
      if (!page) return;
      await loadPage(page);
      const row = page.el.children[index - page.from];
      if (!row) return;
      row.scrollIntoView({ block: 'start' });
      row.classList.add('flash');
      setTimeout(() => row.classList.remove('flash'), 1200);
    };

    const goto = h('input', {
      type: 'number',
      min: 1,
      placeholder: 'turn',
      class: 'goto',
      'aria-label': 'Go to turn',
    });
    goto.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      const n = Number(goto.value);
      const index = timeline.findIndex((e) => e.kind === 'turn' && e.turn === n);
      if (index >= 0) jumpTo(index);
    });

    R.replace(
      container,
      headerView(header, source, o),
      h(
        'section',
        { class: 'timeline-section' },
        h(
          'div',
          { class: 'section-head' },
          h('h3', {}, `Timeline · ${R.num(header.counts.turns)} turns`),
          o.nested ? null : h('label', { class: 'small' }, 'Go to ', goto),
        ),
        R.renderTimeline(timeline, jumpTo),
      ),
      timeline.length === 0 ? h('p', { class: 'muted' }, 'This file has no turns.') : list,
    );
    if (pages.length > 0) await loadPage(pages[0]);
    for (const page of pages.slice(1)) observer.observe(page.el);
    return { header, jumpTo };
  };
})();

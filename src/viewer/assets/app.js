// Boot and routing: `#/` lists the runs (and the inference traces beside
// them), `#/run/<file>` opens a run, `#/inference/<id>` an inference trace. An
// exported page carries its data inline and opens its run directly.
(() => {
  window.Reclamo = window.Reclamo || {};
  const R = window.Reclamo;
  const { h } = R;
  const app = document.getElementById('app');
  const crumbs = document.getElementById('crumbs');
  const inline = document.getElementById('reclamo-data');
  const source = inline ? R.exportSource(JSON.parse(inline.textContent)) : R.remoteSource();

  const fail = (error) => {
    R.replace(
      app,
      h(
        'div',
        { class: 'error-page' },
        h('h1', {}, 'Could not show this'),
        h('p', {}, String(error.message || error)),
      ),
    );
  };

  const route = async () => {
    const inference = /^#\/inference\/(.+)$/.exec(location.hash);
    const match = /^#\/run\/(.+)$/.exec(location.hash);
    const file = match
      ? decodeURIComponent(match[1])
      : source.mode === 'export'
        ? source.root
        : null;
    window.scrollTo(0, 0);
    R.replace(app, h('p', { class: 'muted' }, 'Loading…'));
    try {
      if (inference && source.inference) {
        const id = decodeURIComponent(inference[1]);
        R.replace(crumbs, h('a', { href: '#/' }, 'Runs'), ' / ', h('span', {}, `inference:${id}`));
        document.title = `inference:${id} · reclamo view`;
        await R.renderInference(app, source, id);
      } else if (file === null) {
        R.replace(crumbs);
        document.title = 'reclamo view';
        await R.renderList(app, source);
        if (source.inferences) await R.renderInferenceList(app, source);
      } else {
        R.replace(
          crumbs,
          source.mode === 'server' ? h('a', { href: '#/' }, 'Runs') : null,
          source.mode === 'server' ? ' / ' : null,
          h('span', {}, file),
        );
        const { header } = await R.renderRun(app, source.run(file), { depth: 0 });
        document.title = `${header.question.text.slice(0, 60) || file} · reclamo view`;
      }
      // Read by the browser test and the benchmark: time from navigation to the first rows on screen.
      window.__reclamoRendered = performance.now();
      document.body.dataset.ready = 'true';
    } catch (error) {
      fail(error);
    }
  };
  window.addEventListener('hashchange', () => {
    document.body.dataset.ready = 'false';
    route();
  });
  route();
})();

// Where the page gets its data: the local server's API, or (in an exported
// file) the JSON inlined in the page. A "run source" gives a run's header and
// the details of a range of its timeline rows, and opens child runs.
(() => {
  window.Reclamo = window.Reclamo || {};
  const R = window.Reclamo;

  async function getJson(path) {
    const response = await fetch(path);
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
    return body;
  }

  /** A run held in memory (an upstream nested RLM, or a run of an exported page). */
  R.memoryRun = (view, name, childOf) => ({
    name,
    header: async () => view.header,
    details: async (from, to) => view.details.slice(from, to),
    child: (file) => childOf(file),
  });

  /** The server's runs: lists the directory and reads runs in pages. */
  R.remoteSource = () => {
    const runSource = (file) => ({
      name: file,
      header: async () => (await getJson(`api/run?file=${encodeURIComponent(file)}`)).header,
      details: async (from, to) =>
        (await getJson(`api/details?file=${encodeURIComponent(file)}&from=${from}&to=${to}`))
          .details,
      child: (name) => runSource(name),
    });
    return {
      mode: 'server',
      list: () => getJson('api/runs'),
      run: runSource,
      inferences: () => getJson('api/inferences'),
      inference: (id) => getJson(`api/inference?id=${encodeURIComponent(id)}`),
    };
  };

  /** The data inlined in an exported page. */
  R.exportSource = (data) => {
    const runSource = (file) => {
      const view = data.runs[file];
      if (!view) {
        const missing = async () => {
          throw new Error(`${file} was not found beside the run when this page was exported`);
        };
        return { name: file, header: missing, details: missing, child: runSource };
      }
      return R.memoryRun(view, file, runSource);
    };
    return { mode: 'export', root: data.root, run: runSource };
  };
})();

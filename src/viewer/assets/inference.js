// Inference traces: the list under the runs (a tree by parent links) and one
// trace's page: the task, the views with their digests, each request and
// reply, repairs, tool calls, and how the frame ended.
(() => {
  window.Reclamo = window.Reclamo || {};
  const R = window.Reclamo;
  const { h } = R;

  const tone = { ok: 'ok', incomplete: 'warn', error: 'bad', unfinished: 'muted' };
  const link = (id, text) =>
    h('a', { href: `#/inference/${encodeURIComponent(id)}` }, text || `inference:${id}`);

  /** Rows in tree order: each trace followed by its children, indented. */
  const treeRows = (traces) => {
    const byId = new Map(traces.map((t) => [t.traceId, t]));
    const children = new Map();
    const roots = [];
    for (const t of traces) {
      if (t.parentId && byId.has(t.parentId)) {
        if (!children.has(t.parentId)) children.set(t.parentId, []);
        children.get(t.parentId).push(t);
      } else roots.push(t);
    }
    const out = [];
    const visit = (t, depth) => {
      out.push({ trace: t, depth });
      const kids = (children.get(t.traceId) || []).sort((a, b) => (a.traceId < b.traceId ? -1 : 1));
      for (const kid of kids) visit(kid, depth + 1);
    };
    for (const root of roots) visit(root, 0);
    return out;
  };

  R.renderInferenceList = async (container, source) => {
    const data = await source.inferences();
    if (data.traces.length === 0) return;
    const rows = treeRows(data.traces).map(({ trace: t, depth }) =>
      h(
        'tr',
        { class: 'inference-row', 'data-trace': t.traceId },
        h('td', { class: 'nowrap muted' }, R.when(t.startedAt, true)),
        h(
          'td',
          { class: 'question', style: `padding-left: ${0.5 + depth * 1.25}rem` },
          depth > 0 ? h('span', { class: 'muted' }, '└ ') : null,
          link(t.traceId, t.task || '(no task)'),
        ),
        h('td', { class: 'muted' }, t.origin),
        h('td', {}, R.badge(t.status, tone[t.status])),
        h('td', { class: 'n' }, R.num(t.requests)),
        h('td', { class: 'n' }, R.num(t.tokens)),
        h('td', { class: 'n nowrap' }, R.ms(t.elapsedMs)),
        h('td', { class: 'muted' }, t.model),
      ),
    );
    R.append(container, [
      h('h2', {}, 'Inference traces'),
      h(
        'p',
        { class: 'muted' },
        `${data.dir} · ${data.traces.length} trace${data.traces.length === 1 ? '' : 's'}${data.more ? ` (${data.more} older not listed)` : ''}`,
      ),
      h(
        'table',
        { class: 'runs inferences' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Started', 'Task', 'Origin', 'Status', 'Requests', 'Tokens', 'Time', 'Model'].map(
              (t) => h('th', {}, t),
            ),
          ),
        ),
        h('tbody', {}, rows),
      ),
    ]);
  };

  const messageBlock = (m) =>
    h(
      'div',
      { class: 'message' },
      h('div', { class: 'muted small' }, m.role),
      R.boundedText(m.content || '', { limit: 2000 }),
    );

  const eventBlock = (e) => {
    switch (e.type) {
      case 'request':
        return R.lazyDetails(
          `request ${e.index} · output limit ${R.num(e.maxTokens)}${e.toolChoice ? ` · tools ${e.toolChoice}` : ''} · ${e.messages.length} message${e.messages.length === 1 ? '' : 's'} added`,
          () => h('div', {}, e.messages.map(messageBlock)),
          { className: 'event request' },
        );
      case 'response':
        return h(
          'div',
          { class: 'event response' },
          h(
            'div',
            { class: 'muted small' },
            `response ${e.index} · ${e.finishReason} · ${R.tokens(e.usage)} · charged ${R.num(e.charged)} · ${R.ms(e.latencyMs)} · ${e.model}`,
          ),
          e.reasoning ? R.lazyDetails('reasoning', () => R.boundedText(e.reasoning), {}) : null,
          e.content ? R.boundedText(e.content, { limit: 4000 }) : null,
          (e.toolCalls || []).map((c) => h('pre', { class: 'text' }, `${c.name}(${c.arguments})`)),
        );
      case 'request_error':
        return h(
          'div',
          { class: 'event error' },
          R.badge('request failed', 'bad'),
          ` ${e.error.name}: ${e.error.message}`,
        );
      case 'repair':
        return h(
          'div',
          { class: 'event repair' },
          R.badge('repair', 'warn'),
          h(
            'ul',
            {},
            e.problems.map((p) => h('li', {}, p)),
          ),
        );
      case 'tool':
        return h(
          'div',
          { class: 'event tool' },
          h(
            'div',
            { class: 'muted small' },
            `tool round ${e.round} · ${e.call.name} · `,
            R.badge(e.ok ? 'ok' : 'refused', e.ok ? 'ok' : 'warn'),
            ` · ${R.chars(e.resultChars)}`,
          ),
          h('pre', { class: 'text' }, e.call.arguments),
          R.boundedText(e.result, { limit: 2000 }),
          e.childIds
            ? h(
                'div',
                {},
                'children: ',
                e.childIds.map((id) => [link(id), ' ']),
              )
            : null,
        );
      case 'child':
        return h('div', { class: 'event child' }, `child (${e.origin}): `, link(e.traceId));
      case 'outcome':
        return h(
          'div',
          { class: 'event outcome' },
          R.badge(e.status, tone[e.status]),
          ` after ${R.num(e.requests)} requests, ${R.ms(e.elapsedMs)} · spent ${R.num(e.spent.calls)} calls, ${R.num(e.spent.tokens)} tokens · left ${R.num(e.budget.calls)} calls, ${R.num(e.budget.tokens)} tokens`,
          e.status === 'ok'
            ? R.boundedText(
                typeof e.value === 'string' ? e.value : JSON.stringify(e.value, null, 2),
                { limit: 4000 },
              )
            : null,
          e.observation
            ? R.boundedText(JSON.stringify(e.observation, null, 2), { limit: 4000 })
            : null,
          e.error ? h('p', { class: 'error' }, `${e.error.name}: ${e.error.message}`) : null,
        );
      default:
        return null;
    }
  };

  R.renderInference = async (container, source, id) => {
    const trace = await source.inference(id);
    const f = trace.frame;
    if (!f) throw new Error(`inference:${id} has no frame record`);
    R.replace(
      container,
      h('h1', {}, `inference:${id}`),
      R.boundedText(f.task, { limit: 2000 }),
      h(
        'p',
        { class: 'muted' },
        `${f.origin} · ${f.model.id} at ${f.model.endpoint} · capabilities ${f.parameters.capabilities}${f.parameters.effort ? ` · effort ${f.parameters.effort}` : ''} · budget at start ${R.num(f.budget.calls)} calls, ${R.num(f.budget.tokens)} tokens, depth ${f.budget.depth}`,
      ),
      trace.parentId ? h('p', {}, 'parent: ', link(trace.parentId)) : null,
      trace.childIds.length > 0
        ? h(
            'p',
            {},
            'children: ',
            trace.childIds.map((c) => [link(c), ' ']),
          )
        : null,
      h(
        'p',
        {},
        'contract: ',
        f.contract.kind === 'text' ? 'text' : h('code', {}, JSON.stringify(f.contract.schema)),
      ),
      h(
        'table',
        { class: 'runs views' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['View', 'Bytes', 'SHA-256', 'Source'].map((t) => h('th', {}, t)),
          ),
        ),
        h(
          'tbody',
          {},
          f.views.map((v) =>
            h(
              'tr',
              {},
              h('td', {}, v.label),
              h('td', { class: 'n' }, R.num(v.bytes)),
              h('td', {}, h('code', {}, v.sha256)),
              h('td', { class: 'muted' }, v.path || v.source),
            ),
          ),
        ),
      ),
      h('div', { class: 'events' }, trace.events.filter((e) => e.type !== 'frame').map(eventBlock)),
      trace.errors.length > 0
        ? h(
            'p',
            { class: 'error' },
            trace.errors.map((e) => `line ${e.line}: ${e.message}`).join('; '),
          )
        : null,
    );
  };
})();

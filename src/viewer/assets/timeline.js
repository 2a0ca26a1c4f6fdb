// The run's timeline strip: one column per turn (or per group of turns when
// there are more turns than pixels), its height the turn's time split into
// model, REPL and harness, with a token row under it and marks for errors,
// compaction, child RLMs and the final answer. Hover to read, click to jump.
(() => {
  window.Reclamo = window.Reclamo || {};
  const R = window.Reclamo;
  const { h } = R;
  const COLORS = { model: '#4f7cc9', repl: '#3fa66b', harness: '#a0a4ab', tokens: '#b58be0' };
  const TIME_H = 44;
  const TOKEN_H = 14;
  const MARK_H = 5;

  R.renderTimeline = (timeline, onPick) => {
    const turns = [];
    timeline.forEach((entry, index) => {
      if (entry.kind === 'turn') turns.push({ entry, index });
    });
    if (turns.length === 0) return null;
    const canvas = h('canvas', { class: 'timeline-canvas', height: TIME_H + TOKEN_H + MARK_H + 4 });
    const tip = h('div', { class: 'timeline-tip', hidden: true });
    const legend = h(
      'div',
      { class: 'legend small' },
      ['model', 'repl', 'harness', 'tokens'].map((k) =>
        h('span', {}, h('i', { style: `background:${COLORS[k]}` }), k === 'repl' ? 'REPL' : k),
      ),
      h('span', {}, h('i', { style: 'background:#d64545' }), 'error'),
      h('span', {}, h('i', { style: 'background:#e0a030' }), 'compaction'),
      h('span', {}, h('i', { style: 'background:#8e5cd9' }), 'child RLM'),
      h('span', {}, h('i', { style: 'background:#2e9d5a' }), 'final'),
    );
    const wrap = h('div', { class: 'timeline' }, canvas, tip, legend);
    let columns = [];

    const draw = () => {
      const width = Math.max(200, wrap.clientWidth - 16);
      const dpr = window.devicePixelRatio || 1;
      const height = TIME_H + TOKEN_H + MARK_H + 4;
      canvas.width = width * dpr;
      canvas.height = height * dpr;
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
      const g = canvas.getContext('2d');
      g.scale(dpr, dpr);
      g.clearRect(0, 0, width, height);
      const n = turns.length;
      const count = Math.min(n, width);
      const colW = width / count;
      columns = [];
      let maxMs = 1;
      let maxTok = 1;
      for (const { entry } of turns) {
        maxMs = Math.max(maxMs, entry.ms || 0);
        maxTok = Math.max(maxTok, (entry.inputTokens || 0) + (entry.outputTokens || 0));
      }
      for (let c = 0; c < count; c++) {
        const first = Math.floor((c * n) / count);
        const last = Math.max(first, Math.floor(((c + 1) * n) / count) - 1);
        let pick = turns[first];
        let flags = { error: false, compaction: false, child: false, final: false };
        for (let i = first; i <= last; i++) {
          const t = turns[i];
          if ((t.entry.ms || 0) > (pick.entry.ms || 0)) pick = t;
          flags = {
            error: flags.error || t.entry.errors > 0 || t.entry.partial,
            compaction: flags.compaction || t.entry.compactions > 0,
            child: flags.child || t.entry.children > 0,
            final: flags.final || t.entry.final,
          };
        }
        columns.push({ first, last, pick });
        const e = pick.entry;
        const x = c * colW;
        const w = Math.max(1, colW - (colW > 3 ? 1 : 0));
        let y = TIME_H + MARK_H;
        const parts = [
          [e.modelMs, COLORS.model],
          [e.replMs, COLORS.repl],
          [e.harnessMs, COLORS.harness],
        ];
        if (e.modelMs === null && e.replMs === null && e.ms !== null) parts[0][0] = e.ms;
        for (const [value, color] of parts) {
          if (!value) continue;
          const hgt = (value / maxMs) * TIME_H;
          g.fillStyle = color;
          g.fillRect(x, y - hgt, w, hgt);
          y -= hgt;
        }
        const tok = (e.inputTokens || 0) + (e.outputTokens || 0);
        if (tok) {
          g.fillStyle = COLORS.tokens;
          g.fillRect(x, TIME_H + MARK_H + 4, w, Math.max(1, (tok / maxTok) * TOKEN_H));
        }
        const mark = flags.error
          ? '#d64545'
          : flags.final
            ? '#2e9d5a'
            : flags.child
              ? '#8e5cd9'
              : flags.compaction
                ? '#e0a030'
                : null;
        if (mark) {
          g.fillStyle = mark;
          g.fillRect(x, 0, w, MARK_H - 1);
        }
      }
    };

    const columnAt = (event) => {
      const rect = canvas.getBoundingClientRect();
      const c = Math.floor(((event.clientX - rect.left) / rect.width) * columns.length);
      return columns[Math.max(0, Math.min(columns.length - 1, c))];
    };
    canvas.addEventListener('mousemove', (event) => {
      const col = columnAt(event);
      if (!col) return;
      const e = col.pick.entry;
      const range =
        col.last > col.first
          ? ` (turns ${turns[col.first].entry.turn}–${turns[col.last].entry.turn}, longest shown)`
          : '';
      tip.textContent = `Turn ${e.turn}${range}: ${R.ms(e.ms)} · ${R.num(e.inputTokens)} in / ${R.num(e.outputTokens)} out tokens · ${e.subcalls} sub-calls${e.errors ? ` · ${e.errors} errors` : ''}`;
      tip.hidden = false;
    });
    canvas.addEventListener('mouseleave', () => {
      tip.hidden = true;
    });
    canvas.addEventListener('click', (event) => {
      const col = columnAt(event);
      if (col) onPick(col.pick.index);
    });
    // Draw once the strip has a width (a nested run is built before it is attached), and on resize.
    let drawnWidth = -1;
    new ResizeObserver(() => {
      if (wrap.clientWidth > 0 && wrap.clientWidth !== drawnWidth) {
        drawnWidth = wrap.clientWidth;
        draw();
      }
    }).observe(wrap);
    return wrap;
  };
})();

// Shared helpers for the viewer page: DOM building and number formatting.
// Every script of the page adds to the one `Reclamo` namespace.
(() => {
  window.Reclamo = window.Reclamo || {};
  const R = window.Reclamo;

  /** Builds an element: h('div', {class: 'x', onclick}, child, 'text', [more]). */
  R.h = (tag, attrs, ...children) => {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
      else if (key === 'html') el.innerHTML = value;
      else el.setAttribute(key, value === true ? '' : String(value));
    }
    R.append(el, children);
    return el;
  };

  R.append = (el, children) => {
    for (const child of children.flat(Infinity)) {
      if (child === undefined || child === null || child === false) continue;
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
  };

  /** Replaces an element's children, skipping null and false. */
  R.replace = (el, ...children) => {
    el.replaceChildren();
    return R.append(el, children);
  };

  R.escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

  const grouping = new Intl.NumberFormat('en-US');
  R.num = (n) => (n === null || n === undefined ? '—' : grouping.format(Math.round(n)));

  R.ms = (ms) => {
    if (ms === null || ms === undefined) return '—';
    if (ms < 1000) return `${Math.round(ms)} ms`;
    if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
    const minutes = Math.floor(ms / 60_000);
    return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
  };

  R.chars = (n) => `${R.num(n)} chars`;

  R.bytes = (n) => {
    if (n < 1024) return `${n} B`;
    if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
    return `${(n / 1024 / 1024).toFixed(1)} MB`;
  };

  /** "09:46:18" for a time today-ish, the full date otherwise; the raw text when unparseable. */
  R.when = (at, withDate) => {
    if (!at) return '';
    const date = new Date(at);
    if (Number.isNaN(date.getTime())) return at;
    const iso = date.toISOString();
    return withDate ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso.slice(11, 19);
  };

  R.tokens = (usage) =>
    usage
      ? `${R.num(usage.inputTokens)} in / ${R.num(usage.outputTokens)} out${
          usage.cachedInputTokens ? ` (${R.num(usage.cachedInputTokens)} cached)` : ''
        }`
      : '—';

  /** How a run ended, as a short label and a style. */
  R.endingLabel = (ending) => {
    const stop = ending.stopReason ? ` · ${ending.stopReason}` : '';
    switch (ending.kind) {
      case 'final':
        return {
          text: `final${ending.stopReason === 'answer_dict' ? ' · answer dict' : ''}`,
          tone: 'ok',
        };
      case 'forced': {
        const from = ending.variable
          ? `${ending.forcedSource} ${ending.variable}`
          : ending.forcedSource || 'unknown';
        return { text: `forced finish${stop} · from ${from}`, tone: 'warn' };
      }
      case 'limit':
        return { text: `limit${stop}`, tone: 'warn' };
      case 'error':
        return { text: `error${stop}`, tone: 'bad' };
      default:
        return { text: 'unfinished (no end record)', tone: 'muted' };
    }
  };

  R.badge = (text, tone, title) => R.h('span', { class: `badge ${tone || ''}`, title }, text);

  /**
   * A bounded text: shows the first `limit` characters and a button for the
   * rest. `fullChars` and `cutByWriter` say the file itself holds only a preview.
   */
  R.boundedText = (text, options) => {
    const o = options || {};
    const limit = o.limit || 4000;
    const pre = R.h('pre', { class: o.className || 'text' });
    const note = R.h('div', { class: 'cut-note' });
    const shown = text.length > limit ? text.slice(0, limit) : text;
    pre.textContent = shown;
    const wrap = R.h('div', { class: 'bounded' }, pre);
    if (text.length > limit) {
      const rest = text.length - limit;
      const more = R.h(
        'button',
        {
          class: 'link',
          onclick: () => {
            pre.textContent = text;
            more.remove();
          },
        },
        `show ${R.num(rest)} more chars`,
      );
      note.append(more);
    }
    if (o.fullChars !== undefined && o.fullChars > text.length) {
      note.prepend(
        R.h(
          'span',
          { class: 'cut' },
          `${o.what || 'preview'}: ${R.num(text.length)} of ${R.chars(o.fullChars)}${o.sha256 ? ` · sha256 ${o.sha256.slice(0, 12)}…` : ''} `,
        ),
      );
    } else if (o.sha256) {
      note.prepend(R.h('span', { class: 'muted' }, `sha256 ${o.sha256.slice(0, 12)}… `));
    }
    if (note.childNodes.length > 0) wrap.append(note);
    return wrap;
  };

  /** A <details> whose body is built the first time it opens. */
  R.lazyDetails = (summary, build, options) => {
    const o = options || {};
    const details = R.h(
      'details',
      { class: o.className || '' },
      R.h('summary', { class: o.summaryClass }, summary),
    );
    let built = false;
    details.addEventListener('toggle', () => {
      if (!details.open || built) return;
      built = true;
      const body = build();
      if (body instanceof Promise) {
        const waiting = R.h('p', { class: 'muted' }, 'Loading…');
        details.append(waiting);
        body
          .then((el) => waiting.replaceWith(el))
          .catch((error) =>
            waiting.replaceWith(R.h('p', { class: 'error' }, String(error.message || error))),
          );
      } else {
        details.append(body);
      }
    });
    if (o.open) details.open = true;
    return details;
  };
})();

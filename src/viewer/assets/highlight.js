// A small Python syntax highlighter: one pass of one regular expression,
// output as escaped HTML with `tok-*` classes. Unknown text passes through.
(() => {
  window.Reclamo = window.Reclamo || {};
  const R = window.Reclamo;

  const KEYWORDS = new Set(
    (
      'and as assert async await break class continue def del elif else except finally for ' +
      'from global if import in is lambda nonlocal not or pass raise return try while with yield match case'
    ).split(' '),
  );
  const CONSTANTS = new Set(['True', 'False', 'None', 'self']);
  const BUILTINS = new Set(
    (
      'abs all any bool dict dir enumerate filter float format getattr hasattr int isinstance ' +
      'iter len list map max min next open ord chr print range repr reversed round set sorted ' +
      'str sum tuple type zip Exception ValueError KeyError TypeError NameError'
    ).split(' '),
  );
  // The REPL's host functions: what the harness cares about most.
  const HOST = new Set([
    'llm_query',
    'llm_query_batched',
    'rlm_query',
    'FINAL',
    'FINAL_VAR',
    'SHOW_VARS',
  ]);

  const TOKEN = new RegExp(
    [
      '(?<com>#[^\\n]*)',
      '(?<str>(?:[rRbBuUfF]{1,2})?(?:\'\'\'[\\s\\S]*?(?:\'\'\'|$(?![\\s\\S]))|"""[\\s\\S]*?(?:"""|$(?![\\s\\S]))|\'(?:\\\\.|[^\'\\\\\\n])*\'?|"(?:\\\\.|[^"\\\\\\n])*"?))',
      '(?<dec>^[ \\t]*@[\\w.]+)',
      '(?<num>\\b(?:0[xXoObB][\\da-fA-F_]+|\\d[\\d_]*(?:\\.\\d*)?(?:[eE][+-]?\\d+)?j?)\\b|\\.\\d+\\b)',
      '(?<name>[A-Za-z_][\\w]*)',
    ].join('|'),
    'gm',
  );

  /** Highlights Python source; returns HTML safe to insert. */
  R.highlightPython = (code) => {
    let out = '';
    let last = 0;
    let previous = '';
    TOKEN.lastIndex = 0;
    for (let m = TOKEN.exec(code); m !== null; m = TOKEN.exec(code)) {
      if (m[0] === '') {
        TOKEN.lastIndex += 1;
        continue;
      }
      out += R.escapeHtml(code.slice(last, m.index));
      last = m.index + m[0].length;
      const g = m.groups;
      let cls = '';
      if (g.com !== undefined) cls = 'com';
      else if (g.str !== undefined) cls = 'str';
      else if (g.dec !== undefined) cls = 'dec';
      else if (g.num !== undefined) cls = 'num';
      else {
        const word = g.name;
        if (KEYWORDS.has(word)) cls = 'kw';
        else if (CONSTANTS.has(word)) cls = 'const';
        else if (previous === 'def' || previous === 'class') cls = 'def';
        else if (HOST.has(word)) cls = 'host';
        else if (BUILTINS.has(word)) cls = 'bi';
        else if (code[last] === '(') cls = 'fn';
        previous = word;
      }
      out += cls ? `<span class="tok-${cls}">${R.escapeHtml(m[0])}</span>` : R.escapeHtml(m[0]);
    }
    return out + R.escapeHtml(code.slice(last));
  };

  /** A highlighted code block element. */
  R.codeBlock = (code, lang) => {
    const pre = document.createElement('pre');
    pre.className = 'code';
    const el = document.createElement('code');
    if (!lang || /^(py|python|repl|python3)$/i.test(lang)) el.innerHTML = R.highlightPython(code);
    else el.textContent = code;
    pre.append(el);
    return pre;
  };
})();

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

// The highlighter is a page script; load it as the page does, into a bare window.
const assets = join(import.meta.dirname, '..', '..', 'src', 'viewer', 'assets');
const sandbox: { window: { Reclamo?: { highlightPython(code: string): string } } } = {
  window: {},
};
for (const file of ['util.js', 'highlight.js']) {
  runInNewContext(readFileSync(join(assets, file), 'utf8'), { ...sandbox, Intl });
}
const highlight = (code: string) => sandbox.window.Reclamo?.highlightPython(code) ?? '';

describe('highlightPython', () => {
  it('marks keywords, host functions, strings, numbers, comments and definitions', () => {
    const html = highlight("def f(x):\n    return llm_query('a # b') + 2  # note");
    expect(html).toBe(
      '<span class="tok-kw">def</span> <span class="tok-def">f</span>(x):\n' +
        '    <span class="tok-kw">return</span> <span class="tok-host">llm_query</span>(' +
        '<span class="tok-str">&#39;a # b&#39;</span>) + <span class="tok-num">2</span>  ' +
        '<span class="tok-com"># note</span>',
    );
  });

  it('escapes markup in code so a trajectory cannot inject HTML', () => {
    const html = highlight('print("<img src=x onerror=alert(1)>") # <b>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62;');
  });

  it('keeps an unterminated triple-quoted string to the end and loses no text', () => {
    const code = 'x = """open\nstill open\nprint(1)';
    const html = highlight(code);
    expect(html).toContain(
      '<span class="tok-str">&#34;&#34;&#34;open\nstill open\nprint(1)</span>',
    );
    expect(
      html.replace(/<[^>]+>/g, '').replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))),
    ).toBe(code);
  });
});

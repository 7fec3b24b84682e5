// The Markdown report renders on GitHub: its tables keep their columns and its text stays text
// whatever a policy or a history puts in it, and every Mermaid diagram parses with Mermaid itself
// (in headless Chromium, as GitHub renders them in a browser).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { evilComparison } from '../fixtures/default-comparison.ts';
import { fence, mdText } from '../../reports/compare-markdown.ts';
import { mermaidText } from '../../reports/mermaid.ts';
import { EVIL } from '../fixtures/policies/evil.ts';
import { run, tempDir } from '../sim/cli/run.ts';
import { launchChromium } from '../fixtures/chromium.ts';

describe('Markdown text', () => {
  it('escapes what would break a table or start HTML', () => {
    expect(mdText('a | b <script> `c` [x](y) *z*')).toBe('a \\| b &lt;script&gt; \\`c\\` \\[x\\](y) \\*z\\*');
  });
  it('fences a block with more backticks than it contains', () => {
    expect(fence('text', 'a ``` b')).toBe('````text\na ``` b\n````');
  });
  it('writes Mermaid-reserved characters as entity codes', () => {
    expect(mermaidText('a;b #1 <x> "q" 50%%\nnext')).toBe('a#59;b #35;1 #60;x#62; #quot;q#quot; 50#37;% next');
  });
});

describe('the Markdown report', () => {
  let md: string;
  beforeAll(async () => {
    md = readFileSync(join((await evilComparison()).dir, 'compare.md'), 'utf8');
  }, 300_000);

  /** The lines outside fenced blocks. */
  const prose = () => {
    const out: string[] = [];
    let fenceMark: string | null = null;
    for (const line of md.split('\n')) {
      const m = /^(`{3,})/.exec(line);
      if (m && (fenceMark === null || m[1]!.length >= fenceMark.length) && (fenceMark === null || line.trim() === m[1])) {
        fenceMark = fenceMark === null ? m[1]! : null;
        continue;
      }
      if (fenceMark === null) out.push(line);
    }
    return out;
  };

  it("keeps every table row to its header's columns, hostile cell names included", () => {
    const lines = prose();
    expect(md).toContain('evil &lt;img src=x onerror=');
    let columns = 0;
    for (const line of lines) {
      if (!line.startsWith('|')) {
        columns = 0;
        continue;
      }
      const cells = line.replace(/\\\|/g, '').split('|').length;
      if (columns === 0) columns = cells;
      expect(cells, line).toBe(columns);
    }
  });

  it('never lets hostile text out as HTML', () => {
    for (const line of prose()) {
      expect(line).not.toMatch(/<(script|img)/i);
      if (line.includes('</details>')) expect(line.trim()).toBe('</details>');
    }
    expect(md).toContain(mdText(EVIL));
  });

  it('has Mermaid diagrams that Mermaid parses', async () => {
    const diagrams = [...md.matchAll(/^```mermaid\n([\s\S]*?)\n```$/gm)].map((m) => m[1]!);
    expect(diagrams.length).toBeGreaterThan(5);
    expect(diagrams.some((d) => d.includes('#60;img'))).toBe(true);
    const script = createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js');
    const context = await launchChromium();
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.setContent('<!doctype html><html><body></body></html>');
      await page.addScriptTag({ path: script });
      const failures = await page.evaluate(async (texts) => {
        const m = (globalThis as unknown as { mermaid: { initialize(o: object): void; parse(t: string): Promise<unknown> } }).mermaid;
        m.initialize({ startOnLoad: false });
        const bad: string[] = [];
        for (const t of texts) {
          try {
            await m.parse(t);
          } catch (e) {
            bad.push(`${String(e).slice(0, 300)}\n${t.slice(0, 300)}`);
          }
        }
        return bad;
      }, diagrams);
      expect(failures).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('line breaks in a policy text', () => {
  let md: string;
  beforeAll(async () => {
    const out = tempDir('md-newlines');
    const r = await run(
      'compare',
      '--quiet',
      '--runs',
      '10',
      '--policies',
      'test/fixtures/policies/newlines.ts',
      '--server',
      'reinit=honor-last',
      '--client',
      'reconnect=replay-mutable,guards=',
      '--out',
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    md = readFileSync(join(out, 'compare.md'), 'utf8');
  });

  it('never start a line of their own: no raw heading, HTML, link or fence escapes a code block', () => {
    expect(md).toContain('fault nl at request 0: cut\\n```\\n# Raw heading');
    for (const line of md.split('\n')) {
      expect(line).not.toMatch(/^(# Raw heading|<img|\[click\]|~~~)/);
      if (/^`{3,}/.test(line))
        expect(line, 'a fence line is only ever a fence the report opened or closed').toMatch(/^`{3,}(text|mermaid|json)?$/);
    }
  });
});

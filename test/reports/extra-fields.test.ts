// Another tier may hang its own fields on each cell result (a per-cell runner returning more than
// a check): the reports carry them as data, escaped, and the known parts render as before.
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../reports/compare-html.ts';
import { renderJson } from '../../reports/compare-json.ts';
import { renderMarkdown } from '../../reports/compare-markdown.ts';
import { checkCell, runComparison, type CellRunner } from '../../sim/compare/compare.ts';
import { buildMatrix } from '../../sim/compare/matrix.ts';
import { runConfig } from '../../sim/plugins/run-config.ts';

describe('extra per-result fields', () => {
  it('are kept in the JSON and shown as data in the Markdown and HTML', async () => {
    const cut = { server: { reinit: ['pin-first'] }, client: {} };
    const cells = buildMatrix('records', cut);
    const runner: CellRunner = (cell, config) => ({
      ...checkCell(cell, config),
      exhaustive: { depth: 2, plans: 1234, note: '<b>bold</b>' },
    });
    const c = await runComparison({ cells, kind: 'records', cut, size: cells.length }, runConfig({ seed: 1, runs: 20 }), { runner });
    const json = JSON.parse(renderJson(c, 10));
    expect(json.cells[0].exhaustive).toEqual({ depth: 2, plans: 1234, note: '<b>bold</b>' });
    expect(Object.keys(json.cells[0]).slice(-2)).toEqual(['exhaustive', 'policyError']);
    const md = renderMarkdown(c, 10);
    expect(md).toContain('## Other per-cell data');
    expect(md).toContain('record 000: server.reinit=pin-first · record alphabet: exhaustive');
    expect(md).toContain('"plans":1234');
    const html = renderHtml(c, 10);
    expect(html).toContain('&#60;b&#62;bold&#60;/b&#62;');
    expect(html).not.toContain('<b>bold</b>');
  });
});

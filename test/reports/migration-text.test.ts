// `compare --matrix migration` in the terminal (issue 39): a short answer — record cells by class per
// revision pair, and which revision with which policies is free of silent failure under the records'
// faults — in place of the cell table, which stays in the files. Run on a cut of the matrix.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildMatrix } from '../../sim/compare/matrix.ts';
import { runComparison, type Comparison } from '../../sim/compare/compare.ts';
import { runConfig } from '../../sim/plugins/run-config.ts';
import { renderSummary } from '../../reports/compare-text.ts';
import { migrationAnswer, migrationClassTable } from '../../reports/migration-text.ts';
import { migrationMarkdown } from '../../reports/migration-view.ts';

describe('the migration summary in the terminal', () => {
  let c: Comparison;
  let text: string;
  beforeAll(async () => {
    const cut = { server: { reinit: ['pin-first'] }, client: {} };
    const cells = buildMatrix('migration', cut);
    c = await runComparison({ cells, kind: 'migration', cut, size: cells.length }, runConfig({ seed: 1, runs: 10 }));
    text = renderSummary(c);
  }, 300_000);

  it('counts every record cell of every pair once per alphabet, by class', () => {
    const t = migrationClassTable(c.migration!);
    const rows = t.split('\n').slice(2);
    const pairs = new Set(c.cells.map((x) => x.migration!.pair));
    const alphabets = new Set(c.cells.map((x) => x.alphabet));
    expect(rows).toHaveLength(pairs.size * alphabets.size);
    for (const row of rows) {
      const counts = row
        .trim()
        .split(/\s{2,}/)
        .slice(2)
        .map(Number);
      const [pair, alphabet] = row.trim().split(/\s{2,}/);
      expect(
        counts.reduce((a, b) => a + b, 0),
        row,
      ).toBe(c.cells.filter((x) => x.migration!.pair === pair && x.alphabet === alphabet).length);
    }
  });

  it('answers which revision with which policies is free of silent failure under the records’ faults', () => {
    const answer = migrationAnswer(c.migration!, 120).join('\n');
    for (const row of c.migration!.filter((r) => r.alphabet !== 'all faults'))
      for (const p of row.pairs) {
        const free = p.class !== 'silent' && p.class !== 'broken without faults' && p.class !== 'policy-error';
        const line = answer.split(/\n(?! {4})/).find((l) => l.trim().startsWith(`${p.pair}:`))!;
        expect(line.replace(/\n {4}/g, ' ').includes(row.cell.replace(/ · [^·]*$/, '')), `${p.pair} ${row.cell}`).toBe(free);
      }
  });

  it('prints the summary instead of the cell table, which the Markdown keeps', () => {
    expect(text).toMatch(
      /^Migration 2025-11-25 → 2026-07-28 over \d+ record cells × alphabets: silent failures the new revision removes \d+, keeps \d+,/m,
    );
    expect(text).toMatch(/^revision pair +faults +clean/m);
    expect(text).not.toMatch(/^ *# +cell +empty/m);
    expect(migrationMarkdown(c).join('\n')).toContain(c.migration![0]!.cell);
  });
});

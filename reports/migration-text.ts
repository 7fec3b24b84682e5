// `compare --matrix migration` in the terminal: a short answer in place of the cell table (over a
// thousand lines): per revision pair and alphabet, how many record cells each class holds; which
// revision, with which policies, is free of silent failure under the records' own faults; and the
// count of silent failures moving to 2026-07-28 removes, keeps and adds. The full table is in
// compare.md and compare.html (reports/migration-view.ts).
import type { Comparison } from '../sim/compare/compare.ts';
import type { CellClass } from '../sim/compare/cell-result.ts';
import type { MigrationRow } from '../sim/compare/migration.ts';
import { migrationSummary } from './migration-view.ts';
import { table, wrap } from './table.ts';

const COLUMNS: readonly [string, (c: CellClass) => boolean][] = [
  ['clean', (c) => c === 'clean'],
  ['loud, recovers', (c) => c === 'loud, recovers'],
  ['loud, never recovers', (c) => c === 'loud, never recovers'],
  ['silent', (c) => c === 'silent'],
  ['cannot meet', (c) => c === 'broken without faults'],
  ['policy error', (c) => c === 'policy-error'],
];

/** The pairs in the order the rows hold them. */
function pairsOf(rows: readonly MigrationRow[]): string[] {
  return [...new Set(rows.flatMap((r) => r.pairs.map((p) => p.pair)))];
}

/** Per pair and alphabet, the record cells of each class. */
export function migrationClassTable(rows: readonly MigrationRow[]): string {
  const alphabets = [...new Set(rows.map((r) => r.alphabet))];
  const out: string[][] = [];
  for (const alphabet of alphabets)
    for (const pair of pairsOf(rows)) {
      const classes = rows
        .filter((r) => r.alphabet === alphabet)
        .flatMap((r) => r.pairs.filter((p) => p.pair === pair).map((p) => p.class));
      out.push([pair, alphabet, ...COLUMNS.map(([, is]) => String(classes.filter(is).length))]);
    }
  return table(['revision pair', 'faults', ...COLUMNS.map(([name]) => name)], out, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r']);
}

/** Under the records' own faults: per pair, the record cells (policies) free of silent failure. */
export function migrationAnswer(rows: readonly MigrationRow[], width: number): string[] {
  const own = rows.filter((r) => r.alphabet !== 'all faults');
  const lines: string[] = [];
  for (const pair of pairsOf(rows)) {
    const free = own.filter((r) =>
      r.pairs.some((p) => p.pair === pair && p.class !== 'silent' && p.class !== 'broken without faults' && p.class !== 'policy-error'),
    );
    const names = free.map((r) => r.cell.replace(/ · [^·]*$/, ''));
    const text = `${pair}: ${free.length} of ${own.length} record cells free of silent failure under their own faults${names.length ? `: ${names.join('; ')}` : ''}`;
    lines.push(...wrap(text, width - 2).map((l, i) => `${i === 0 ? '  ' : '    '}${l}`));
  }
  return lines;
}

/** The terminal's migration section, in place of the cell table. */
export function migrationText(c: Comparison, width: number): string[] {
  if (!c.migration) return [];
  const n = migrationSummary(c.migration);
  return [
    ...wrap(
      `Migration 2025-11-25 → 2026-07-28 over ${c.migration.length} record cells × alphabets: silent failures the new revision removes ${n.removed}, keeps ${n.kept}, adds ${n.added}. Record cells by class, per revision pair (the full table, per cell, with each plan: compare.md, compare.html):`,
      width,
    ),
    '',
    migrationClassTable(c.migration),
    '',
    "Which revision, with which policies, under the records' own faults:",
    ...migrationAnswer(c.migration, width),
  ];
}

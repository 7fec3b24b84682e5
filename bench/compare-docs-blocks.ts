// The parts of docs/ that the default comparison (`npm run compare`: seed 1, 200 runs per cell)
// decides, as text made from its compare.json: the cause groups (docs/reports.md), what the tool
// shows for each record's cells (docs/records.md) and the machine coverage (docs/performance.md).
// `npm run compare:docs` (bench/compare-docs.ts) writes them between their markers; the test
// test/docs/compare-docs.test.ts makes them again from its own run and fails when a page differs.
import type { Comparison } from '../sim/compare/compare.ts';
import { comparisonCoverage } from '../reports/compare-analysis.ts';
import { groupsOf, mitigationLine } from '../reports/compare-causes.ts';

/** Each block: the page it lives in and how it is made from the comparison. */
export const COMPARE_BLOCKS: Record<string, { page: string; make: (c: Comparison) => string }> = {
  causes: { page: 'docs/reports.md', make: causesBlock },
  'record-000': { page: 'docs/records.md', make: (c) => recordBlock(c, '000') },
  'record-003': { page: 'docs/records.md', make: (c) => recordBlock(c, '003') },
  coverage: { page: 'docs/performance.md', make: coverageBlock },
  'mitigations-000': { page: 'docs/reports.md', make: (c) => mitigationsBlock(c, '000') },
  'mitigations-003': { page: 'docs/reports.md', make: (c) => mitigationsBlock(c, '003') },
};

const cell = (s: string) => s.replace(/\|/g, '\\|');

export function causesBlock(c: Comparison): string {
  const groups = groupsOf(c);
  const silent = groups.filter((g) => g.silent).length;
  const rows = groups.map(
    (g) => `| ${g.label} | ${g.cells.length} | ${g.silent ? 'silent' : 'loud'} | \`${cell(g.plan)}\` → ${cell(g.how)} |`,
  );
  return [
    `${groups.length} groups in all, ${silent} silent and ${groups.length - silent} loud (seed ${c.seed}, ${c.runs} runs per cell, the ${c.matrix.kind} matrix of ${c.cells.length} cells):`,
    '',
    '| group | cells | how | cause: minimal plan → mechanism |',
    '|---|---:|---|---|',
    ...rows,
  ].join('\n');
}

/** The record's cells as the comparison classes them, with the properties each violates. */
export function recordBlock(c: Comparison, record: '000' | '003'): string {
  const rows = c.cells
    .filter((x) => x.record === record)
    .map((x) => {
      const violated = x.results.filter((r) => r.verdict === 'violated').map((r) => `\`${r.property}\``);
      return `| ${x.index + 1} | ${cell(x.name)} | ${x.role} | ${x.class} | ${violated.join(', ') || '—'} |`;
    });
  return [
    `Cells of record ${record} in \`npm run compare\` (seed ${c.seed}, ${c.runs} runs per cell):`,
    '',
    '| # | cell | role | class | violated |',
    '|---:|---|---|---|---|',
    ...rows,
  ].join('\n');
}

export function coverageBlock(c: Comparison): string {
  const machines = comparisonCoverage(c);
  const reached = machines.reduce((n, m) => n + m.transitions.reached, 0);
  const total = machines.reduce((n, m) => n + m.transitions.total, 0);
  const per = machines.map((m) => `the ${m.machine}'s ${m.transitions.reached} of ${m.transitions.total}`).join(', ');
  const never = machines.flatMap((m) => m.transitions.unreached.map((t) => `- ${m.machine} \`${t}\``));
  return [
    `The default comparison (\`npm run compare\`, seed ${c.seed}, ${c.runs} runs per cell) takes ${reached} of the machines' ${total} transitions (${per}). It never takes:`,
    '',
    ...never,
  ].join('\n');
}

/** The record's vulnerable cell under its own faults: the finding of the record's property, and the
 *  one-knob changes that make it hold, by how (as the report's finding section lists them). */
export function mitigationsBlock(c: Comparison, record: '000' | '003'): string {
  const vulnerable = c.cells.find((x) => x.record === record && x.role === 'vulnerable' && x.alphabet !== 'all faults');
  const property = record === '000' ? 'no-silent-empty' : 'no-silent-hang';
  const index = c.findings.findIndex((f) => f.cell === vulnerable?.id && f.properties.some((p) => p.property === property));
  const f = c.findings[index];
  if (!vulnerable || !f) return `No finding of \`${property}\` in record ${record}'s vulnerable cell.`;
  const group = groupsOf(c).find((g) => g.findings.includes(f.id));
  const m = mitigationLine(f);
  const ways = ['clean', 'loud, recovers', 'loud, never recovers'] as const;
  const lines = ways.flatMap((way) => {
    const changes = (m?.holds ?? []).filter((h) => h.fared === way).map((h) => `\`${h.change}\``);
    return changes.length ? [`- holds, ${way}: ${changes.join(', ')}`] : [];
  });
  if (m?.fails.length) lines.push(`- still silent (or failing): ${m.fails.map((x) => `\`${x}\``).join(', ')}`);
  return [
    `Record ${record}'s vulnerable cell under its own faults (cell ${vulnerable.index + 1}, finding ${index + 1}, group ${group?.label ?? '—'}), as the report prints it:`,
    '',
    ...lines,
  ].join('\n');
}

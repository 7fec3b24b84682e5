// The comparison as the terminal shows it: one row per cell with each property's verdict, the
// call counts and the class (fitted to 120 columns), then the cause groups and what changes what
// (last, so that they are what stays on the screen), then where the reports were written.
import type { Comparison } from '../sim/compare/compare.ts';
import { callCounts, verdictCell, type VerdictKind } from './compare-common.ts';
import { table, wrap } from './table.ts';
import { groupsOf, whatChangesWhat } from './compare-causes.ts';
import { plural } from './words.ts';

/** Cause groups listed in the terminal; the reports hold every one. */
const SHOWN = 30;

const SHORT: Record<VerdictKind, string> = { holds: 'ok', violated: 'FAIL', vacuous: 'vac', 'policy-error': 'ERR', 'not-run': '-' };

/** Column heads for the built-in properties, so that the table fits 120 columns; a legend names them. */
const HEAD: Record<string, string> = {
  'no-silent-empty': 'empty',
  'no-silent-hang': 'hang',
  'caps-immutable': 'caps',
  'transport-expressible': 'transp',
  'content-type-consistent': 'c-type',
  recovers: 'recov',
  'at-most-once': 'once',
};

export const SUMMARY_WIDTH = 120;

/** A list item folded to the summary's width: two spaces before the first line, four before the rest. */
function indented(text: string): string[] {
  return wrap(text, SUMMARY_WIDTH - 4).map((l, i) => (i === 0 ? `  ${l}` : `    ${l}`));
}

export function renderSummary(c: Comparison): string {
  const heads = c.properties.map((p) => HEAD[p] ?? p);
  const header = ['#', 'cell', ...heads, 'ok/loud/silent', 'class'];
  const rows = c.cells.map((cell) => {
    const n = callCounts(cell);
    const verdicts = c.properties.map((p) => SHORT[verdictCell(cell, p).kind]);
    return [String(cell.index + 1), cell.name, ...verdicts, `${n.ok}/${n.loud}/${n.silent}`, cell.class];
  });
  const lines = [
    `mcp-faultsim compare: ${c.matrix.kind} matrix, ${c.cells.length}${c.cells.length === c.matrix.size ? '' : ` of ${c.matrix.size}`} cells${c.shard ? ` (shard ${c.shard.index}/${c.shard.count})` : ''}, seed ${c.seed}, ${c.runs} runs per cell`,
    '',
    table(header, rows, ['r'], { width: SUMMARY_WIDTH, fold: 1, minimum: 24 }),
    ...wrap(
      `columns: ${c.properties
        .filter((p) => HEAD[p])
        .map((p) => `${HEAD[p]} = ${p}`)
        .join(', ')}; ok = holds, FAIL = violated, vac = vacuous (never reached), ERR = a policy error`,
      SUMMARY_WIDTH,
    ),
  ];
  const groups = groupsOf(c);
  if (groups.length) {
    lines.push('', 'Causes (findings with the same minimal plan and mechanism), most cells first:');
    for (const g of groups.slice(0, SHOWN))
      lines.push(...indented(`${g.label}  ${plural(g.cells.length, 'cell')}, ${g.silent ? 'SILENT' : 'loud'}: ${g.plan} → ${g.how}`));
    if (groups.length > SHOWN) lines.push(`  … and ${groups.length - SHOWN} more in the reports`);
    const t = whatChangesWhat(c, groups);
    if (t.rows.length) {
      lines.push('', 'What changes what (single knob changes that make the silent findings of a group hold: held/findings, how):');
      for (const g of t.groups) {
        const fixes = t.rows
          .filter((r) => (r.cells.get(g.label)?.holds ?? 0) > 0)
          .map((r) => {
            const x = r.cells.get(g.label)!;
            return `${r.change} ${x.holds}/${x.of} ${x.fared}`;
          });
        lines.push(...indented(`${g.label}: ${fixes.join('; ') || 'no single change'}`));
      }
    }
  }
  const errors = c.findings.filter((f) => f.kind === 'policy-error');
  if (errors.length) {
    lines.push('', 'Policy errors:');
    for (const f of errors) lines.push(...indented(`${f.cellName}: ${f.properties[0]!.why}`));
  }
  if (c.interrupted) lines.push('', `INTERRUPTED: ${c.cells.length} of ${c.matrix.size} cells finished.`);
  return `${lines.join('\n')}\n`;
}

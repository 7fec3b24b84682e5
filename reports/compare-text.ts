// The comparison as the terminal shows it: one row per cell with each property's verdict, the
// call counts and the class, then where the reports were written.
import type { Comparison } from '../compare/compare.ts';
import { describePlan } from '../core/plan.ts';
import { callCounts, verdictCell, type VerdictKind } from './compare-common.ts';
import { table } from './table.ts';

/** Silent findings listed in the terminal; the reports hold every one. */
const SHOWN = 30;

const SHORT: Record<VerdictKind, string> = { holds: 'ok', violated: 'FAIL', vacuous: 'vac', 'policy-error': 'ERR', 'not-run': '-' };

export function renderSummary(c: Comparison): string {
  const header = ['#', 'cell', ...c.properties, 'calls ok/loud/silent', 'class'];
  const rows = c.cells.map((cell) => {
    const n = callCounts(cell);
    const verdicts = c.properties.map((p) => SHORT[verdictCell(cell, p).kind]);
    return [String(cell.index + 1), cell.name, ...verdicts, `${n.ok}/${n.loud}/${n.silent}`, cell.class];
  });
  const lines = [
    `mcp-faultsim compare: ${c.matrix.kind} matrix, ${c.cells.length}${c.cells.length === c.matrix.size ? '' : ` of ${c.matrix.size}`} cells${c.shard ? ` (shard ${c.shard.index}/${c.shard.count})` : ''}, seed ${c.seed}, ${c.runs} runs per cell`,
    '',
    table(header, rows, ['r']),
  ];
  const silent = c.findings.filter((f) => f.properties.some((p) => p.property === 'no-silent-empty' || p.property === 'no-silent-hang'));
  if (silent.length) {
    lines.push('', 'Silent failures, shrunk:');
    for (const f of silent.slice(0, SHOWN)) lines.push(`  ${f.cellName}: ${describePlan(f.plan)}`);
    if (silent.length > SHOWN) lines.push(`  … and ${silent.length - SHOWN} more in the reports`);
  }
  const errors = c.findings.filter((f) => f.kind === 'policy-error');
  if (errors.length) {
    lines.push('', 'Policy errors:');
    for (const f of errors) lines.push(`  ${f.cellName}: ${f.properties[0]!.why}`);
  }
  if (c.interrupted) lines.push('', `INTERRUPTED: ${c.cells.length} of ${c.matrix.size} cells finished.`);
  return `${lines.join('\n')}\n`;
}

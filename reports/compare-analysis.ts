// What the comparison reports derive from the cells beyond their verdicts, shared by the Markdown
// and the HTML: machine coverage over the whole comparison (what no cell ever exercised), the
// exhaustive search's verdicts when `--depth` ran one, and a finding's minimality certificate.
import type { Comparison } from '../sim/compare/compare.ts';
import type { Exhaustive } from '../sim/search/exhaustive/exhaustive.ts';
import type { FindingProperty } from '../sim/compare/findings.ts';
import { describePlan } from '../sim/core/plan.ts';
import { unionCoverage, type MachineCoverage } from '../sim/core/reach.ts';
import type { SearchVerdict } from '../properties/vacuity.ts';
import { describeExhaustive } from './explore-text.ts';
import { plural } from './words.ts';

/** Per machine, what any cell reached: a state or transition is unreached only if no cell reached it.
 *  Wire cells (real code) measure no machine coverage (an empty list) and policy errors none either. */
export function comparisonCoverage(c: Comparison): MachineCoverage[] {
  return unionCoverage(c.cells.filter((cell) => !cell.policyError).map((cell) => cell.coverage ?? []));
}

export interface ExhaustiveRow {
  cell: string;
  index: number;
  depth: number;
  states: number;
  plans: number;
  complete: boolean;
  results: { property: string; verdict: SearchVerdict; text: string }[];
}

/** One row per cell that ran an exhaustive search (`compare --depth`); none without it. */
export function exhaustiveRows(c: Comparison): ExhaustiveRow[] {
  const rows: ExhaustiveRow[] = [];
  for (const cell of c.cells) {
    const x = (cell as { exploration?: { depth: number; states: number; plans: number; complete: boolean } }).exploration;
    if (!x) continue;
    const results = cell.results.flatMap((r) => {
      const e = (r as { exhaustive?: Exhaustive }).exhaustive;
      if (!e) return [];
      return [{ property: r.property, verdict: e.verdict, text: describeExhaustive(e) }];
    });
    rows.push({ cell: cell.name, index: cell.index, depth: x.depth, states: x.states, plans: x.plans, complete: x.complete, results });
  }
  return rows;
}

/** "minimal: …" for a violated property of a finding, or null when no certificate was computed. */
export function minimality(p: FindingProperty): string | null {
  if (p.minimal === undefined) return null;
  if (p.minimal) return 'minimal: no plan with fewer faults violates it on this workload (checked exhaustively)';
  const shorter = p.shorter
    ? `: ${plural(p.shorter.faults.length, 'fault')} suffice${p.shorter.faults.length === 1 ? 's' : ''}, ${describePlan(p.shorter.faults)}`
    : '';
  return `NOT minimal${shorter}`;
}

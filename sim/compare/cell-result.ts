// One cell's result as a comparison (and `check`) carries it: the check result of its combination,
// the cell it ran in, what a designer reads first (its class), and its policy error if a designer's
// policy failed in it. Plain data: the findings, the merge and the reports read it.
import type { CheckResult } from '../search/random/result.ts';
import type { PolicyErrorReport } from '../search/random/policy-errors.ts';
import type { MatrixCell } from './matrix.ts';
import type { BrokenWithoutFaults } from './fault-free.ts';

import type { CellClass } from '../core/cell-class.ts';

export { CELL_CLASSES, type CellClass } from '../core/cell-class.ts';

export interface CellResult extends CheckResult {
  index: number;
  id: string;
  name: string;
  record: MatrixCell['record'];
  role: MatrixCell['role'];
  alphabet: MatrixCell['alphabet'];
  class: CellClass;
  policyError: PolicyErrorReport | null;
  /** Migration cells: which seed cell and revision pair (`--matrix migration`). */
  migration?: MatrixCell['migration'];
  /** Its fault-free runs fail a call: no fault run was made (compare/fault-free.ts). Model cells only. */
  brokenWithoutFaults?: BrokenWithoutFaults;
  /** Knobs (and guard values) that configure nothing here: no 2025-11-25 session between the sides. */
  notApplicable?: string[];
}

export function classify(r: CheckResult, policyError: PolicyErrorReport | null, broken: BrokenWithoutFaults | null = null): CellClass {
  if (policyError) return 'policy-error';
  if (broken) return 'broken without faults';
  const o = r.results[0]?.outcomes;
  if (!o) return 'clean';
  if (o['silent-empty'] + o['silent-hang'] > 0) return 'silent';
  // A tool that ran twice for one call is silent too: the agent saw one ordinary result.
  if (r.results.some((p) => p.property === 'at-most-once' && p.verdict === 'violated')) return 'silent';
  if (o.error === 0) return 'clean';
  return r.results.find((p) => p.property === 'recovers')?.verdict === 'violated' ? 'loud, never recovers' : 'loud, recovers';
}

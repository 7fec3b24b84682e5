// One cell's result as a comparison (and `check`) carries it: the check result of its combination,
// the cell it ran in, what a designer reads first (its class), and its policy error if a designer's
// policy failed in it. Plain data: the findings, the merge and the reports read it.
import type { CheckResult } from '../search/random/result.ts';
import type { PolicyErrorReport } from '../search/random/policy-errors.ts';
import type { MatrixCell } from './matrix.ts';

/** What a designer reads first: how the agent's calls fared in this cell. */
export type CellClass = 'policy-error' | 'silent' | 'loud, never recovers' | 'loud, recovers' | 'clean';
export const CELL_CLASSES: readonly CellClass[] = ['policy-error', 'silent', 'loud, never recovers', 'loud, recovers', 'clean'];

export interface CellResult extends CheckResult {
  index: number;
  id: string;
  name: string;
  record: MatrixCell['record'];
  role: MatrixCell['role'];
  alphabet: MatrixCell['alphabet'];
  class: CellClass;
  policyError: PolicyErrorReport | null;
}

export function classify(r: CheckResult, policyError: PolicyErrorReport | null): CellClass {
  if (policyError) return 'policy-error';
  const o = r.results[0]?.outcomes;
  if (!o) return 'clean';
  if (o['silent-empty'] + o['silent-hang'] > 0) return 'silent';
  if (o.error === 0) return 'clean';
  return r.results.find((p) => p.property === 'recovers')?.verdict === 'violated' ? 'loud, never recovers' : 'loud, recovers';
}

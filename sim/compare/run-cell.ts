// One cell of a comparison, run and classified: works without faults first (a model cell whose
// fault-free runs fail a call runs no fault at all: compare/fault-free.ts, its class says so), then
// its runner; a designer's policy that fails inside becomes the cell's policy error rather than an
// exception. `check` runs its one combination by the same path, as a cell of its own (`singleCell`).
import type { FaultName } from '../../models/faults.ts';
import { notApplicable, type Combination } from '../../models/policies.ts';
import { PolicyError } from '../../models/additions.ts';
import { emptyStats } from '../../properties/stats.ts';
import { emptyReach } from '../core/reach.ts';
import type { RunConfig } from '../plugins/run-config.ts';
import { checkShape } from '../search/random/check.ts';
import { policyErrorReport, type PolicyErrorReport } from '../search/random/policy-errors.ts';
import type { CheckResult } from '../search/random/result.ts';
import { coverageReport } from '../world/coverage.ts';
import { classify, type CellResult } from './cell-result.ts';
import type { CellRunner, Progress } from './cell-runner.ts';
import type { RunnerResult } from './check-cell.ts';
import { brokenWithoutFaults, worldFaultFree, type BrokenWithoutFaults } from './fault-free.ts';
import type { MatrixCell } from './matrix.ts';

/** `check`'s one combination as a cell of its own, so that it runs, classifies and yields findings
 *  exactly as a comparison's cells do. */
export function singleCell(combination: Combination, faults: readonly FaultName[]): MatrixCell {
  const where = { index: 0, id: 'check', name: 'check', record: null, role: 'product', alphabet: 'cell alphabet' } as const;
  return { ...where, combination, faults, property: null, shape: {} };
}

/** What watches one cell: its runs' progress, and the flags of its first runs (and their reads),
 *  if the runner kept them (`checkCell` does). */
export interface CellHooks {
  onProgress?: Progress;
  onSampled?: (sampled: Uint8Array, reads?: Uint16Array) => void;
}

/** Run one cell under `config`; a policy's failure becomes its finding instead of an exception. */
export async function runCell(cell: MatrixCell, runner: CellRunner, config: RunConfig, hooks: CellHooks = {}): Promise<CellResult> {
  const { seed, runs } = config;
  const nothing: CheckResult = {
    combination: cell.combination,
    seed,
    runs,
    faults: cell.faults,
    results: [],
    stats: emptyStats(),
    coverage: coverageReport(emptyReach()),
  };
  let result = nothing;
  let policyError: PolicyErrorReport | null = null;
  let broken: BrokenWithoutFaults | null = null;
  try {
    const shape = checkShape(cell.combination, cell.faults, cell.shape);
    broken = cell.wire ? null : brokenWithoutFaults(cell.combination, worldFaultFree(cell.combination, config.world), shape);
    if (!broken) {
      const { sampled, sampledReads, ...rest } = (await runner(cell, config, hooks.onProgress)) as RunnerResult;
      result = rest;
      // Only the runs of this very cell, as this config draws them (a runner may wrap checkCell otherwise).
      const same = rest.seed === seed && rest.runs === runs && rest.faults.join() === cell.faults.join();
      if (sampled && same && JSON.stringify(rest.combination) === JSON.stringify(cell.combination))
        hooks.onSampled?.(sampled, sampledReads);
    }
  } catch (e) {
    if (!(e instanceof PolicyError)) throw e;
    policyError = policyErrorReport(e, config, cell);
    result = nothing;
  }
  const { index, id, name, record, role, alphabet, migration } = cell;
  // Knobs configuring what this pair of revisions never reaches: said, never silently ignored.
  const skipped = notApplicable(cell.combination);
  return {
    index,
    id,
    name,
    record,
    role,
    alphabet,
    ...(migration ? { migration } : {}),
    class: classify(result, policyError, broken),
    ...result,
    policyError,
    ...(broken ? { brokenWithoutFaults: broken } : {}),
    ...(skipped.length ? { notApplicable: skipped } : {}),
  };
}

// A designer's policy that throws, returns nonsense, hangs or never lets a run end is a finding of
// the combination it ran in (`policy-error`), not a crash: the rest of a matrix still runs. Like a
// violation it comes shrunk, with the input that reproduces it.
import fc from 'fast-check';
import { PolicyError } from '../../../models/additions.ts';
import { inputs, type InputShape } from './arbitraries.ts';
import { CombinationJudge } from './check.ts';
import type { FaultName } from '../../../models/faults.ts';
import type { Combination } from '../../../models/policies.ts';
import type { HistoryEntry } from '../../core/history.ts';
import type { FaultPlan } from '../../core/plan.ts';
import type { Workload } from '../../core/workload.ts';
import { runWorld, type WorldOptions } from '../../world/world.ts';
import type { RunConfig } from '../../plugins/run-config.ts';

export interface PolicyErrorReport {
  /** Which policy: `server.reinit=streaming-floor`, `fault http-503`, `property no-late-result`… */
  policy: string;
  reason: PolicyError['reason'];
  message: string;
  faults: FaultPlan;
  workload: Workload;
  schedule: number[];
  seed: number;
  path: string;
  /** False for a time-out: each shrink step would wait for the time limit again. */
  shrunk: boolean;
  /** The run up to the failure. */
  history: HistoryEntry[];
}

/** Where the policy failed: the combination, and the alphabet and shape its check drew from. */
interface Where {
  combination: Combination;
  faults: readonly FaultName[];
  shape: InputShape;
}

function historyUpTo(
  where: Where,
  world: WorldOptions,
  plan: FaultPlan,
  workload: Workload,
  schedule: number[],
  error: PolicyError,
): HistoryEntry[] {
  const attached = error.history as { entries?: HistoryEntry[] } | undefined;
  if (attached?.entries) return attached.entries;
  try {
    // The error came from a property, after the run: run it again for its history.
    return runWorld({ combination: where.combination, workload, plan, schedule }, world).entries;
  } catch (e) {
    if (e instanceof PolicyError) return (e.history as { entries?: HistoryEntry[] } | undefined)?.entries ?? [];
    throw e;
  }
}

/** Find the smallest input that makes the policy fail again, from the same seed as the check, under
 *  the run's config (the report's history comes from the same world). */
export function policyErrorReport(first: PolicyError, config: RunConfig, where: Where): PolicyErrorReport {
  const arb = inputs({ ...where.shape, plan: { ...where.shape.plan, faults: where.faults } });
  const judge = new CombinationJudge(where.combination, config);
  let last = first;
  const details = fc.check(
    fc.property(arb, ([plan, workload, schedule]) => {
      try {
        judge.recorded(plan, workload, schedule);
        return true;
      } catch (e) {
        if (!(e instanceof PolicyError)) throw e;
        last = e;
        return false;
      }
    }),
    { seed: config.seed, numRuns: config.runs, endOnFailure: first.reason === 'timeout' },
  );
  const found = details.failed && details.counterexample ? details.counterexample[0] : null;
  const [plan, workload, schedule] = found ?? [[], [], []];
  return {
    policy: last.policy,
    reason: last.reason,
    message: last.message,
    faults: plan,
    workload,
    schedule,
    seed: details.seed,
    path: details.counterexamplePath ?? '',
    shrunk: first.reason !== 'timeout',
    history: found ? historyUpTo(where, config.world, plan, workload, schedule, last) : [],
  };
}

// What a random check returns, whichever tier ran it: per property its verdict, the counts of the
// sampled runs, and for a violation the shrunk counterexample with what replays it. Plain data,
// shared by the runner (check-runner.ts), the tiers (check.ts, wire/check.ts), certificates,
// the comparison and the reports.
import type { FaultName } from '../../../models/faults.ts';
import type { Combination } from '../../../models/policies.ts';
import type { Outcome } from '../../../properties/outcomes.ts';
import type { RunStats } from '../../../properties/stats.ts';
import type { SearchVerdict } from '../../../properties/vacuity.ts';
import type { HistoryEntry } from '../../core/history.ts';
import type { MachineCoverage } from '../../core/reach.ts';
import type { FaultPlan } from '../../core/plan.ts';
import type { Workload } from '../../core/workload.ts';
import type { Exhaustive } from '../exhaustive/exhaustive.ts';

export interface Counterexample {
  faults: FaultPlan;
  workload: Workload;
  schedule: number[];
  seed: number;
  path: string;
  why: string;
  outcomes: { callId: number; outcome: Outcome }[];
  /** How many inputs fast-check drew before the first failure, and how many shrink steps it took. */
  runsToFailure: number;
  shrinks: number;
  /** The run's history, when the model world cannot recompute it from the inputs (wire runs). */
  history?: HistoryEntry[];
}

/** A violating plan with fewer faults than a counterexample's, on its workload. */
export interface Shorter {
  faults: FaultPlan;
  workload: Workload;
}

export interface PropertyResult {
  property: string;
  verdict: SearchVerdict;
  /** Call outcomes over the sampled runs (the same for every property of a combination). */
  outcomes: Record<Outcome, number>;
  /** In how many sampled runs the property's situation was reached. */
  reached: number;
  violations: number;
  counterexample: Counterexample | null;
  /** With a counterexample: no plan with fewer faults violates the property on its workload and
   *  schedule (search/certify.ts; with an exhaustive search, on no workload that search covered either). */
  minimal?: boolean;
  /** When not minimal: a violating plan with fewer faults. */
  shorter?: Shorter | null;
  /** With `--depth`: the exhaustive search's verdict beside the random one (search/exhaustive/exhaustive.ts). */
  exhaustive?: Exhaustive;
}

export interface CheckResult {
  combination: Combination;
  seed: number;
  runs: number;
  faults: readonly FaultName[];
  results: PropertyResult[];
  stats: RunStats;
  /** Per machine, the states and transitions the sampled runs reached, and those they did not. */
  coverage: MachineCoverage[];
}

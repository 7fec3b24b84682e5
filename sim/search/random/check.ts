// Random exploration of one combination in the model world, under a run's config
// (plugins/run-config.ts): the one check runner (check-runner.ts) over `runWorld`, then a minimality
// certificate for each counterexample (search/certify.ts) and the machine coverage of the sampled
// runs. Returns data (the runner formats nothing and throws nothing for a violation).
import type { FaultName } from '../../../models/faults.ts';
import type { Combination } from '../../../models/policies.ts';
import { sortedStats } from '../../../properties/stats.ts';
import type { History } from '../../core/history.ts';
import type { FaultPlan } from '../../core/plan.ts';
import type { Workload } from '../../core/workload.ts';
import type { Reference } from '../../../properties/outcomes.ts';
import { coverageReport } from '../../world/coverage.ts';
import type { RunConfig } from '../../plugins/run-config.ts';
import { certify } from '../certify.ts';
import type { InputShape } from './arbitraries.ts';
import { worldRunner } from './world-runner.ts';
import { InputJudge, randomCheck, type Judged, type RandomCheckObserver, type Recorded } from './check-runner.ts';
import type { ReferenceRun } from './input-judge.ts';
import type { RunSummary, Stored } from '../run-store.ts';

export { frameOf, worldRunner } from './world-runner.ts';
import type { CheckResult, PropertyResult } from './result.ts';

export type { CheckResult, Counterexample, PropertyResult } from './result.ts';

/** Where a check draws its inputs from: the fault alphabet and the shape of plans and workloads
 *  (a cell's; compare/matrix.ts). */
export interface CheckSpace {
  faults: readonly FaultName[];
  shape?: InputShape;
}

/** What watches a check as it runs (the config is data; these are not): its progress (a callback
 *  that may throw to stop the check) and each sampled run's judgement, with the knobs it read (the
 *  mitigation finder keeps what the first ones say: compare/check-cell.ts). */
export type CheckObserver = Omit<RandomCheckObserver, 'progressEvery'>;

export { DEFAULT_RUNS, DEFAULT_SEED } from '../../plugins/run-config.ts';

/** Model-world runs and judgements of one combination (InputJudge over its world runner): `recorded`
 *  keeps the history and judges from it, `judged` judges as the run goes; each judged run comes with the
 *  knobs it read; a workload's fault-free reference found in the run store where it has it. */
export class CombinationJudge {
  private readonly judge: InputJudge;

  constructor(
    readonly combination: Combination,
    /** The run's world and the properties judged (the mitigation finder's judge takes fewer). */
    config: Pick<RunConfig, 'world' | 'properties'>,
    /** Count each run's vacuity stats (false: `judged` runs give empty stats). */
    withStats = true,
  ) {
    this.judge = new InputJudge(worldRunner(combination, config.world), config.properties, withStats);
  }

  /** The workload's fault-free run as the judge keeps it (what each call returned): the reference every
   *  run of the workload is judged against (compare/fault-free.ts reads it). */
  reference(workload: Workload): Reference {
    return (this.judge.reference(workload) as ReferenceRun).reference;
  }

  /** The run's history alone. */
  history(plan: FaultPlan, workload: Workload, schedule: readonly number[]): History {
    return this.recorded(plan, workload, schedule).history;
  }

  /** The run with its history, judged from it. */
  recorded(plan: FaultPlan, workload: Workload, schedule: readonly number[]): Recorded {
    return this.judge.recorded({ plan, workload, schedule: [...schedule] }) as Recorded;
  }

  /** The run judged as it goes, with no history kept, and the knobs it read. */
  judged(plan: FaultPlan, workload: Workload, schedule: readonly number[]): Judged {
    return this.judge.judged({ plan, workload, schedule: [...schedule] }, false) as Judged;
  }

  /** What the run store knows of the run of the input whose store key (`keyOf`) is `key`, under the
   *  judge's combination (`InputJudge.stored`). */
  stored(key: string, accept?: (s: RunSummary) => boolean): Stored | undefined {
    return this.judge.stored(key, accept);
  }

  /** Facts about the run of the input keyed `key`, which read `reads`, for the run store (`InputJudge.note`). */
  note(key: string, reads: number, facts: Partial<RunSummary>): void {
    this.judge.note(key, reads, facts);
  }
}

/** The shape `check` draws its inputs from: the caller's, under the alphabet `faults`. */
export function checkShape(combination: Combination, faults: readonly FaultName[], shape: InputShape = {}): InputShape {
  // Idempotent calls matter only to a client that tells them apart; others draw workloads as before.
  const idempotent = combination.client.reissue === 'idempotent-only' ? { idempotent: true } : {};
  return { ...shape, plan: { ...shape.plan, faults }, workload: { ...idempotent, ...shape.workload } };
}

/** The random check of `combination` under `config`, drawing from `space`: its properties' verdicts,
 *  each counterexample shrunk and certified (or not) minimal, the vacuity counts and coverage. */
export function checkCombination(combination: Combination, config: RunConfig, space: CheckSpace, observe: CheckObserver = {}): CheckResult {
  const { faults } = space;
  const { world, properties, seed, runs } = config;
  const { tally, counterexamples } = randomCheck(worldRunner(combination, world), config, checkShape(combination, faults, space.shape), {
    progressEvery: 50,
    ...observe,
  });
  const results = properties.map((p): PropertyResult => {
    const counterexample = counterexamples.get(p.name);
    if (!counterexample) return tally.result(p, null);
    const { minimal, shorter } = certify(combination, p, counterexample, faults, world);
    return tally.result(p, { counterexample, minimal, ...(shorter ? { shorter } : {}) });
  });
  return { combination, seed, runs, faults, results, stats: sortedStats(tally.stats.toStats()), coverage: coverageReport(tally.reach) };
}

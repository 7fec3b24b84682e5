// Random exploration of one combination in the model world: the one check runner
// (check-runner.ts) over `runWorld`, then a minimality certificate for each counterexample
// (search/certify.ts) and the machine coverage of the sampled runs. Returns data (the runner
// formats nothing and throws nothing for a violation).
import { FAULT_VOCABULARY, type FaultName } from '../../../models/faults.ts';
import type { Combination } from '../../../models/policies.ts';
import { PROPERTIES, type Property } from '../../../properties/properties.ts';
import { sortedStats } from '../../../properties/stats.ts';
import type { History } from '../../core/history.ts';
import type { FaultPlan } from '../../core/plan.ts';
import type { Workload } from '../../core/workload.ts';
import type { Reference } from '../../../properties/outcomes.ts';
import { coverageReport } from '../../world/coverage.ts';
import type { WorldOptions } from '../../world/world.ts';
import { certify } from '../certify.ts';
import type { InputShape } from './arbitraries.ts';
import { ALL_KNOBS, noteReads, readsDuring, trackedCombination } from './read-set.ts';
import { ReferenceReads, trackedRunner, worldRunner } from './world-runner.ts';
import { sharedReferences } from './reference-memo.ts';
import { InputJudge, randomCheck, type Judged, type Recorded } from './check-runner.ts';

export { frameOf, worldRunner } from './world-runner.ts';
import type { CheckResult, PropertyResult } from './result.ts';

export type { CheckResult, Counterexample, PropertyResult } from './result.ts';

export interface CheckOptions {
  /** The fault alphabet (default: the whole vocabulary). */
  faults?: readonly FaultName[];
  properties?: readonly Property[];
  seed?: number;
  runs?: number;
  shape?: InputShape;
  world?: Partial<WorldOptions>;
  /** Called as sampled runs finish (done, total): for a progress bar. */
  onProgress?: (done: number, total: number) => void;
  /** Each sampled run's judgement, in order (the mitigation finder keeps a mark of each, compare/compare.ts);
   *  with `trackReads`, also the knobs the run read (read-set.ts), its reference's reads counted in. */
  onSample?: (judged: Judged, reads: number) => void;
  /** Run a tracked combination (read-set.ts), for `onSample`'s reads. */
  trackReads?: boolean;
}

export const DEFAULT_SEED = 1;
export const DEFAULT_RUNS = 200;

/** Model-world runs and judgements of one combination, memoized (check-runner.ts). With `tracksReads`,
 *  its runs read a tracked combination (read-set.ts): a `readsDuring` scope around a call gets the
 *  knobs that run read, the reads of the workload's fault-free reference (computed once, for many
 *  runs) counted in too. */
export class Judge {
  private readonly judge: InputJudge;
  /** The knobs each workload's reference read (tracked judges only). */
  private readonly referenceReads = new ReferenceReads();

  constructor(
    readonly combination: Combination,
    world: Partial<WorldOptions> = {},
    properties: readonly Property[] = PROPERTIES,
    /** Count each run's vacuity stats (false: `judged` runs give empty stats). */
    withStats = true,
    readonly tracksReads = false,
  ) {
    const runner = tracksReads
      ? { ...worldRunner(trackedCombination(combination), world), references: sharedReferences(combination, world) }
      : worldRunner(combination, world);
    this.judge = new InputJudge(runner, properties, withStats);
  }

  /** Every reference of this judge is computed here first, in a scope of its own, and its reads
   *  counted for each run that uses it (the judge's own cache would hide them). */
  private withReference(workload: Workload): void {
    if (!this.tracksReads) return;
    let mask = this.referenceReads.get(workload);
    if (mask === undefined) {
      mask = readsDuring(() => this.judge.reference(workload))[1];
      this.referenceReads.set(workload, mask);
    }
    noteReads(mask);
  }

  /** The workload's fault-free run as the judge keeps it (what each call returned): the reference every
   *  run of the workload is judged against (compare/fault-free.ts reads it). */
  reference(workload: Workload): Reference {
    this.withReference(workload);
    return this.judge.reference(workload) as Reference;
  }

  /** The run with its history, judged from it (memoized; not when tracked: a remembered run reads nothing). */
  run(plan: FaultPlan, workload: Workload, schedule: readonly number[]): Recorded {
    this.withReference(workload);
    return this.judge.recorded({ plan, workload, schedule: [...schedule] }, !this.tracksReads) as Recorded;
  }

  /** The run's history alone (not memoized). */
  history(plan: FaultPlan, workload: Workload, schedule: readonly number[]): History {
    return this.recorded(plan, workload, schedule).history;
  }

  /** The run with its history, judged from it (not memoized). */
  recorded(plan: FaultPlan, workload: Workload, schedule: readonly number[]): Recorded {
    this.withReference(workload);
    return this.judge.recorded({ plan, workload, schedule: [...schedule] }) as Recorded;
  }

  /** The run judged as it goes, with no history kept (not memoized: a search's runs differ). */
  judged(plan: FaultPlan, workload: Workload, schedule: readonly number[]): Judged {
    this.withReference(workload);
    return this.judge.run({ plan, workload, schedule: [...schedule] }, false) as Judged;
  }
}

/** The shape `check` draws its inputs from: the caller's, under the alphabet `faults`. */
export function checkShape(combination: Combination, faults: readonly FaultName[], shape: InputShape = {}): InputShape {
  // Idempotent calls matter only to a client that tells them apart; others draw workloads as before.
  const idempotent = combination.client.reissue === 'idempotent-only' ? { idempotent: true } : {};
  return { ...shape, plan: { ...shape.plan, faults }, workload: { ...idempotent, ...shape.workload } };
}

export function check(combination: Combination, options: CheckOptions = {}): CheckResult {
  const { faults = FAULT_VOCABULARY, properties = PROPERTIES, seed = DEFAULT_SEED, runs = DEFAULT_RUNS } = options;
  const tracked = options.trackReads ? trackedRunner(combination, options.world) : null;
  const onSample = options.onSample;
  const sampledOne = (j: Judged) => onSample?.(j, tracked ? tracked.readsOfLast() : ALL_KNOBS);
  const { tally, counterexamples } = randomCheck(tracked ?? worldRunner(combination, options.world), {
    properties,
    shape: checkShape(combination, faults, options.shape),
    seed,
    runs,
    progressEvery: 50,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(onSample || tracked ? { onSample: (j: Judged) => sampledOne(j) } : {}),
  });
  const results = properties.map((p): PropertyResult => {
    const counterexample = counterexamples.get(p.name);
    if (!counterexample) return tally.result(p, null);
    const { minimal, shorter } = certify(combination, p, counterexample, faults, options.world);
    return tally.result(p, { counterexample, minimal, ...(shorter ? { shorter } : {}) });
  });
  return { combination, seed, runs, faults, results, stats: sortedStats(tally.stats), coverage: coverageReport(tally.reach) };
}

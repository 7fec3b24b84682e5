// Random exploration of one combination: run the properties over fast-check-drawn inputs and, for
// each violated property, the shrunk counterexample with the seed and path that replay it. Returns
// data (the runner formats nothing and throws nothing for a violation).
//
// Two phases. First `runs` inputs are drawn with `fc.sample` and judged once, for the outcome and
// vacuity counts that every property shares. Then each violated property gets its own `fc.check`
// with the same seed, which draws the same sequence, reaches the same first failure and shrinks it.
import fc from 'fast-check';
import { FAULT_VOCABULARY, type FaultName } from '../../models/faults.ts';
import type { Combination } from '../../models/policies.ts';
import { judge, type Judgement } from '../../properties/judge.ts';
import { referenceOf, type Outcome, type Reference } from '../../properties/outcomes.ts';
import { PROPERTIES, type Property } from '../../properties/properties.ts';
import { sortedStats, type RunStats } from '../../properties/stats.ts';
import { inputs, type InputShape } from './arbitraries.ts';
import { SampleTally } from './tally.ts';
import { certify, type Certificate } from '../certify.ts';
import { coverageReport, type MachineCoverage } from '../../world/coverage.ts';
import type { Exhaustive } from '../exhaustive/exhaustive.ts';
import type { History, HistoryEntry } from '../../core/history.ts';
import type { FaultPlan } from '../../core/plan.ts';
import { runWorld, type WorldOptions } from '../../world/world.ts';
import type { Workload } from '../../core/workload.ts';

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
}

export const DEFAULT_SEED = 1;
export const DEFAULT_RUNS = 200;

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

export interface PropertyResult {
  property: string;
  verdict: 'holds' | 'violated' | 'vacuous';
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
  shorter?: Certificate['shorter'];
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

/** Runs and judgements of one combination, memoized: the second phase revisits the first's inputs. */
export class Judge {
  private readonly references = new Map<string, Reference>();
  private readonly judged = new Map<string, { history: History; judgement: Judgement }>();

  constructor(
    readonly combination: Combination,
    private readonly world: Partial<WorldOptions> = {},
    private readonly properties: readonly Property[] = PROPERTIES,
  ) {}

  reference(workload: Workload): Reference {
    const key = JSON.stringify(workload);
    let ref = this.references.get(key);
    if (!ref) {
      ref = referenceOf(runWorld({ combination: this.combination, workload, plan: [] }, this.world));
      this.references.set(key, ref);
    }
    return ref;
  }

  run(plan: FaultPlan, workload: Workload, schedule: readonly number[]): { history: History; judgement: Judgement } {
    const key = JSON.stringify([plan, workload, schedule]);
    let hit = this.judged.get(key);
    if (!hit) {
      const history = runWorld({ combination: this.combination, workload, plan, schedule }, this.world);
      hit = { history, judgement: judge(history, this.reference(workload), this.properties) };
      if (this.judged.size > 5000) this.judged.clear();
      this.judged.set(key, hit);
    }
    return hit;
  }
}

export function check(combination: Combination, options: CheckOptions = {}): CheckResult {
  const { faults = FAULT_VOCABULARY, properties = PROPERTIES, seed = DEFAULT_SEED, runs = DEFAULT_RUNS } = options;
  // Idempotent calls matter only to a client that tells them apart; others draw workloads as before.
  const idempotent = combination.client.reissue === 'idempotent-only' ? { idempotent: true } : {};
  const shape: InputShape = { ...options.shape, plan: { ...options.shape?.plan, faults }, workload: { ...idempotent, ...options.shape?.workload } };
  const arb = inputs(shape);
  const judgeRun = new Judge(combination, options.world, properties);

  const tally = new SampleTally(properties);
  let done = 0;
  for (const [plan, workload, schedule] of fc.sample(arb, { seed, numRuns: runs })) {
    if (options.onProgress && done++ % 50 === 0) options.onProgress(done - 1, runs);
    const { history, judgement } = judgeRun.run(plan, workload, schedule);
    tally.add(history, judgement);
  }

  options.onProgress?.(runs, runs);
  const results = properties.map((p): PropertyResult => {
    if (!tally.violated(p)) return tally.result(p, null);
    const counterexample = shrink(judgeRun, arb, p, seed, runs);
    const { minimal, shorter } = certify(combination, p, counterexample, faults, options.world);
    return tally.result(p, { counterexample, minimal, ...(shorter ? { shorter } : {}) });
  });
  const stats = tally.stats;
  const c = stats.coverage;
  const coverage = coverageReport({ client: { states: Object.keys(c.client.states), transitions: Object.keys(c.client.transitions) }, server: { states: Object.keys(c.server.states), transitions: Object.keys(c.server.transitions) } });
  return { combination, seed, runs, faults, results, stats: sortedStats(stats), coverage };
}

function shrink(judgeRun: Judge, arb: fc.Arbitrary<[FaultPlan, Workload, number[]]>, p: Property, seed: number, runs: number): Counterexample {
  const holds = (plan: FaultPlan, workload: Workload, schedule: number[]) => judgeRun.run(plan, workload, schedule).judgement.verdicts[p.name]!.holds;
  const details = fc.check(fc.property(arb, ([plan, workload, schedule]) => holds(plan, workload, schedule)), { seed, numRuns: runs });
  if (!details.failed || !details.counterexample) {
    throw new Error(`internal: fc.check did not reproduce the violation of ${p.name} that fc.sample found (seed ${seed})`);
  }
  const [[plan, workload, schedule]] = details.counterexample;
  return counterexampleOf(judgeRun, p, plan, workload, schedule, { seed: details.seed, path: details.counterexamplePath ?? '', runsToFailure: details.numRuns, shrinks: details.numShrinks });
}

export function counterexampleOf(
  judgeRun: Judge,
  p: Property,
  plan: FaultPlan,
  workload: Workload,
  schedule: number[],
  found: { seed: number; path: string; runsToFailure: number; shrinks: number },
): Counterexample {
  const { judgement } = judgeRun.run(plan, workload, schedule);
  return {
    faults: plan,
    workload,
    schedule,
    ...found,
    why: judgement.verdicts[p.name]!.why ?? '',
    outcomes: judgement.outcomes.map((o) => ({ callId: o.callId, outcome: o.outcome })),
  };
}

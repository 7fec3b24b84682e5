// `check` on the wire: the model tier's two phases (search/random/check.ts), asynchronous. Inputs are drawn
// by the same arbitraries with `fc.sample` and run through the fault network once each, for the
// outcome and vacuity counts; then each violated property gets its own `fc.check` over an
// `fc.asyncProperty` with the same seed, which reaches the same first failure and shrinks it. The
// result is the model tier's CheckResult, plus `wire` (what stood on each side) and `skipped`
// (faults the server could not take part in, with why). Histories are memoized: shrinking revisits.
import fc from 'fast-check';
import { FAULT_VOCABULARY, type FaultName } from '../models/faults.ts';
import { judge, type Judgement } from '../properties/judge.ts';
import { referenceOf, type Reference } from '../properties/outcomes.ts';
import { PROPERTIES, type Property } from '../properties/properties.ts';
import { sortedStats } from '../properties/stats.ts';
import { inputs, type InputShape } from '../search/random/arbitraries.ts';
import { SampleTally } from '../search/random/tally.ts';
import { DEFAULT_RUNS, DEFAULT_SEED, type CheckResult, type Counterexample, type PropertyResult } from '../search/random/check.ts';
import type { History } from '../core/history.ts';
import type { FaultPlan } from '../core/plan.ts';
import type { Workload } from '../core/workload.ts';
import { describeSides, modelCombination, type WireSetup, type WireSides } from './setup.ts';
import { runWire, type WireOptions } from './world.ts';

export interface WireCheckOptions {
  faults?: readonly FaultName[];
  properties?: readonly Property[];
  seed?: number;
  runs?: number;
  shape?: InputShape;
  wire?: Partial<WireOptions>;
  onProgress?: (done: number, total: number) => void;
}

export interface WireCheckResult extends CheckResult {
  wire: WireSides;
  /** Faults that fired but could not act on this server, by name, with the reason. */
  skipped: Record<string, string>;
}

/** Wire runs and judgements of one setup, memoized (the fault-free reference once per workload). */
export class WireJudge {
  private readonly references = new Map<string, Reference>();
  private readonly judged = new Map<string, { history: History; judgement: Judgement }>();

  constructor(
    readonly setup: WireSetup,
    private readonly options: Partial<WireOptions> = {},
    private readonly properties: readonly Property[] = PROPERTIES,
  ) {}

  async reference(workload: Workload): Promise<Reference> {
    const key = JSON.stringify(workload);
    let ref = this.references.get(key);
    if (!ref) {
      ref = referenceOf(await runWire(this.setup, { workload, plan: [] }, this.options));
      this.references.set(key, ref);
    }
    return ref;
  }

  async run(plan: FaultPlan, workload: Workload): Promise<{ history: History; judgement: Judgement }> {
    const key = JSON.stringify([plan, workload]);
    let hit = this.judged.get(key);
    if (!hit) {
      const history = await runWire(this.setup, { workload, plan }, this.options);
      hit = { history, judgement: judge(history, await this.reference(workload), this.properties) };
      if (this.judged.size > 2000) this.judged.clear();
      this.judged.set(key, hit);
    }
    return hit;
  }
}

function skippedOf(h: History, into: Record<string, string>): void {
  for (const e of h.entries) if (e.kind === 'fault' && !e.applied && e.detail.startsWith('skipped: ')) into[e.fault] ??= e.detail.slice('skipped: '.length);
}

export async function wireCheck(setup: WireSetup, options: WireCheckOptions = {}): Promise<WireCheckResult> {
  const { faults = FAULT_VOCABULARY, properties = PROPERTIES, seed = DEFAULT_SEED, runs = DEFAULT_RUNS } = options;
  const shape: InputShape = { ...options.shape, plan: { ...options.shape?.plan, faults } };
  const arb = inputs(shape);
  const judgeRun = new WireJudge(setup, options.wire, properties);
  const skipped: Record<string, string> = {};
  const tally = new SampleTally(properties);
  let done = 0;
  // The schedule (tie-breaks of the model's event queue) has no meaning on the wire: real code
  // orders its own events. It is drawn, so that seeds draw the same plans as the model tier.
  for (const [plan, workload] of fc.sample(arb, { seed, numRuns: runs })) {
    options.onProgress?.(done++, runs);
    const { history, judgement } = await judgeRun.run(plan, workload);
    tally.add(history, judgement);
    skippedOf(history, skipped);
  }
  options.onProgress?.(runs, runs);
  const results: PropertyResult[] = [];
  for (const p of properties) results.push(tally.violated(p) ? tally.result(p, { counterexample: await shrink(judgeRun, arb, p, seed, runs) }) : tally.result(p, null));
  // Machine coverage is a model-tier measure: real code on either side has no statechart to cover.
  return { combination: modelCombination(setup), wire: describeSides(setup), seed, runs, faults, results, stats: sortedStats(tally.stats), coverage: [], skipped };
}

async function shrink(judgeRun: WireJudge, arb: fc.Arbitrary<[FaultPlan, Workload, number[]]>, p: Property, seed: number, runs: number): Promise<Counterexample> {
  const holds = async ([plan, workload]: [FaultPlan, Workload, number[]]) => (await judgeRun.run(plan, workload)).judgement.verdicts[p.name]!.holds;
  const details = await fc.check(fc.asyncProperty(arb, holds), { seed, numRuns: runs });
  if (!details.failed || !details.counterexample) {
    throw new Error(`internal: fc.check did not reproduce the violation of ${p.name} that fc.sample found on the wire (seed ${seed})`);
  }
  const [[plan, workload]] = details.counterexample;
  const { history, judgement } = await judgeRun.run(plan, workload);
  return {
    faults: plan,
    workload,
    schedule: [],
    seed: details.seed,
    path: details.counterexamplePath ?? '',
    why: judgement.verdicts[p.name]!.why ?? '',
    outcomes: judgement.outcomes.map((o) => ({ callId: o.callId, outcome: o.outcome })),
    runsToFailure: details.numRuns,
    shrinks: details.numShrinks,
    // Real code ran: only this history says what happened (the model world would tell another story).
    history: history.entries,
  };
}

/** For `compare --wire`: one seed cell with a side replaced by real code (`sdk`, `sdk-sse`,
 *  `sdk-json`), under the cell's own fault alphabet and workload shape. */
export function wireCheckCell(
  cell: { combination: import('../models/policies.ts').Combination; faults: readonly FaultName[]; progressCalls: boolean },
  sides: { client?: 'model' | 'sdk'; server?: 'model' | 'sdk-sse' | 'sdk-json' },
  options: Omit<WireCheckOptions, 'faults' | 'shape'> = {},
): Promise<WireCheckResult> {
  const setup: WireSetup = {
    client: sides.client === 'sdk' ? { kind: 'sdk' } : { kind: 'model', policy: cell.combination.client },
    server: sides.server === 'sdk-sse' || sides.server === 'sdk-json' ? { kind: 'sdk', preset: sides.server } : { kind: 'model', policy: cell.combination.server },
  };
  return wireCheck(setup, { ...options, faults: cell.faults, shape: { workload: { overlap: false, progress: cell.progressCalls ? 'always' : 'any' } } });
}

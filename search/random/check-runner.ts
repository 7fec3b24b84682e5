// One random check over any runner `input → History | Promise<History>`: the model world and the
// wire tier both go through it. Two phases. First `runs` inputs are drawn (lazily, the sequence of
// `fc.sample`: input-stream.ts) and judged once each, for the outcome and vacuity counts every property
// shares. Then each violated property gets its own `fc.check` with the same seed, started at the run
// that first violated it (fast-check's replay path), which shrinks it as a whole run would. Runs and judgements are memoized (the second phase revisits
// the first's inputs; the fault-free reference runs once per workload).
//
// A runner that returns histories synchronously is checked synchronously (`fc.property`, no
// promise anywhere: the model tier stays as fast as it was); one that returns promises through
// `fc.asyncProperty`. Which one it is, the first sampled run tells.
import fc from 'fast-check';
import { judge, type Judgement } from '../../properties/judge.ts';
import { referenceOf, type Reference } from '../../properties/outcomes.ts';
import type { Property } from '../../properties/properties.ts';
import type { History } from '../../core/history.ts';
import type { FaultPlan } from '../../core/plan.ts';
import type { Workload } from '../../core/workload.ts';
import type { InputShape } from './arbitraries.ts';
import { inputs } from './arbitraries.ts';
import type { Counterexample } from './result.ts';
import { sampleLazily } from './input-stream.ts';
import { SampleTally } from './tally.ts';

/** One run's input: what fast-check draws. */
export interface CheckInput {
  plan: FaultPlan;
  workload: Workload;
  /** Tie-breaks among events due at the same instant (the model world's event queue). */
  schedule: number[];
}

export type Maybe<T> = T | Promise<T>;

export interface Runner {
  run(input: CheckInput): Maybe<History>;
  /** The runner has no event queue of its own (real code orders its events): the drawn schedule
   *  is dropped, so that runs, cache keys and counterexamples do not depend on it. */
  ignoresSchedule?: boolean;
  /** The model world recomputes a history from its input: counterexamples need not carry it. */
  replayable?: boolean;
  /** Bound on memoized judgements (the cache is cleared when it is passed). */
  cacheSize?: number;
}

export interface Judged {
  history: History;
  judgement: Judgement;
}

/** Apply `f` now if `x` is a value, after it resolves if it is a promise. */
export function andThen<T, U>(x: Maybe<T>, f: (t: T) => Maybe<U>): Maybe<U> {
  return x instanceof Promise ? x.then(f) : f(x);
}

/** Runs and judgements of one runner, memoized; the fault-free reference once per workload. */
export class InputJudge {
  private readonly references = new Map<string, Reference>();
  private readonly judged = new Map<string, Judged>();

  constructor(
    readonly runner: Runner,
    private readonly properties: readonly Property[],
  ) {}

  /** The input as the runner sees it (its schedule dropped if the runner has none). */
  inputOf(plan: FaultPlan, workload: Workload, schedule: number[]): CheckInput {
    return { plan, workload, schedule: this.runner.ignoresSchedule ? [] : schedule };
  }

  reference(workload: Workload): Maybe<Reference> {
    const key = JSON.stringify(workload);
    const hit = this.references.get(key);
    if (hit) return hit;
    return andThen(this.runner.run({ plan: [], workload, schedule: [] }), (h) => {
      const ref = referenceOf(h);
      this.references.set(key, ref);
      return ref;
    });
  }

  run(input: CheckInput): Maybe<Judged> {
    const key = JSON.stringify([input.plan, input.workload, input.schedule]);
    const hit = this.judged.get(key);
    if (hit) return hit;
    return andThen(this.runner.run(input), (history) =>
      andThen(this.reference(input.workload), (reference) => {
        const judged = { history, judgement: judge(history, reference, this.properties) };
        if (this.judged.size > (this.runner.cacheSize ?? 5000)) this.judged.clear();
        this.judged.set(key, judged);
        return judged;
      }),
    );
  }
}

export interface RandomCheckOptions {
  properties: readonly Property[];
  shape: InputShape;
  seed: number;
  runs: number;
  /** Called as sampled runs finish (done, total), every `progressEvery` runs. */
  onProgress?: (done: number, total: number) => void;
  progressEvery?: number;
  /** Each sampled run, after it is judged (the wire tier collects skipped faults from it). */
  onSample?: (judged: Judged) => void;
}

export interface RandomCheck {
  tally: SampleTally;
  /** The shrunk counterexample of each violated property, by name. */
  counterexamples: Map<string, Counterexample>;
  judge: InputJudge;
}

type Drawn = [FaultPlan, Workload, number[]];

/** `f` over the drawn inputs in order, waiting for each that returns a promise. */
function eachInput(items: Iterator<Drawn>, f: (d: Drawn, i: number) => Maybe<unknown>, from = 0): Maybe<void> {
  for (let i = from; ; i++) {
    const next = items.next();
    if (next.done) return;
    const r = f(next.value, i);
    if (r instanceof Promise) return r.then(() => eachInput(items, f, i + 1));
  }
}

/** Both phases over one runner. Synchronous for a synchronous runner (see the overloads). */
export function randomCheck(runner: Runner & { run(input: CheckInput): History }, o: RandomCheckOptions): RandomCheck;
export function randomCheck(runner: Runner, o: RandomCheckOptions): Maybe<RandomCheck>;
export function randomCheck(runner: Runner, o: RandomCheckOptions): Maybe<RandomCheck> {
  const arb = inputs(o.shape);
  const judge = new InputJudge(runner, o.properties);
  const tally = new SampleTally(o.properties);
  const every = o.progressEvery ?? 1;
  let isAsync = false;
  // The index of the first run that violated each property: its shrink starts there.
  const firstViolation = new Map<string, number>();
  const sampled = eachInput(sampleLazily(arb, o.seed, o.runs), ([plan, workload, schedule], i) => {
    if (o.onProgress && i % every === 0) o.onProgress(i, o.runs);
    const judged = judge.run(judge.inputOf(plan, workload, schedule));
    if (judged instanceof Promise) isAsync = true;
    return andThen(judged, (j) => {
      tally.add(j.history, j.judgement);
      for (const p of o.properties) {
        if (!j.judgement.verdicts[p.name]!.holds && !firstViolation.has(p.name)) firstViolation.set(p.name, i);
      }
      o.onSample?.(j);
    });
  });
  return andThen(sampled, () => {
    o.onProgress?.(o.runs, o.runs);
    const counterexamples = new Map<string, Counterexample>();
    const violated = o.properties.filter((p) => tally.violated(p));
    const shrinkAll = (k: number): Maybe<RandomCheck> => {
      if (k === violated.length) return { tally, counterexamples, judge };
      const p = violated[k]!;
      return andThen(shrink(judge, arb, p, o.seed, firstViolation.get(p.name)!, isAsync), (ce) => {
        counterexamples.set(p.name, ce);
        return shrinkAll(k + 1);
      });
    };
    return shrinkAll(0);
  });
}

function shrink(
  judge: InputJudge,
  arb: fc.Arbitrary<Drawn>,
  p: Property,
  seed: number,
  firstViolation: number,
  isAsync: boolean,
): Maybe<Counterexample> {
  const holds = ([plan, workload, schedule]: Drawn) =>
    andThen(judge.run(judge.inputOf(plan, workload, schedule)), (j) => j.judgement.verdicts[p.name]!.holds);
  // The replay path starts at the first violating run: the runs before it, which hold, are not drawn again.
  const settings = { seed, path: String(firstViolation) };
  const details = isAsync
    ? fc.check(fc.asyncProperty(arb, holds as (d: Drawn) => Promise<boolean>), settings)
    : fc.check(fc.property(arb, holds as (d: Drawn) => boolean), settings);
  return andThen(details, (d) => {
    if (!d.failed || !d.counterexample) {
      throw new Error(`internal: fc.check did not reproduce the violation of ${p.name} that fc.sample found (seed ${seed})`);
    }
    const [[plan, workload, schedule]] = d.counterexample;
    const found = { seed: d.seed, path: d.counterexamplePath ?? '', runsToFailure: firstViolation + 1, shrinks: d.numShrinks };
    return counterexampleOf(judge, p, judge.inputOf(plan, workload, schedule), found);
  });
}

/** The counterexample of `p` at `input`, with how it was found. Carries the history unless the
 *  runner's histories are recomputable from the input (the model world). */
export function counterexampleOf(
  judge: InputJudge,
  p: Property,
  input: CheckInput,
  found: { seed: number; path: string; runsToFailure: number; shrinks: number },
): Maybe<Counterexample> {
  return andThen(judge.run(input), ({ history, judgement }) => ({
    faults: input.plan,
    workload: input.workload,
    schedule: input.schedule,
    ...found,
    why: judgement.verdicts[p.name]!.why ?? '',
    outcomes: judgement.outcomes.map((o) => ({ callId: o.callId, outcome: o.outcome })),
    // Real code ran: only this history says what happened (the model world would tell another story).
    ...(judge.runner.replayable ? {} : { history: history.entries }),
  }));
}

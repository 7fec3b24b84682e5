// One random check over any runner `input → History | Promise<History>`: the model world and the
// wire tier both go through it. Two phases. First `runs` inputs are drawn (lazily, the sequence of
// `fc.sample`: input-stream.ts) and judged once each, for the outcome and vacuity counts every property
// shares. Then each violated property gets its own `fc.check` with the same seed, started at the run
// that first violated it (fast-check's replay path), which shrinks it as a whole run would.
//
// A runner with `runInto` (the model world) is judged as each run goes: its entries stream into the
// property folds, an outcomes fold and a stats fold (properties/judge.ts `RunJudge`), and no history
// is kept. A history is recorded only where one is read: a counterexample of real code, a policy that
// failed mid-run (run again, recorded, to fail the same way with its history). The fault-free
// reference runs once per workload. Only violating sampled runs are memoized (the shrink starts at
// them and revisits its candidates); a runner of real code has every run memoized, as before.
//
// A runner that returns histories synchronously is checked synchronously (`fc.property`, no
// promise anywhere: the model tier stays as fast as it was); one that returns promises through
// `fc.asyncProperty`. Which one it is, the first sampled run tells.
import fc from 'fast-check';
import type { HistoryFrame } from '../../properties/fold.ts';
import { judge, judgedAsTheRunGoes, RunJudge, type Judgement } from '../../properties/judge.ts';
import { ReferenceFold, referenceOf, type Reference } from '../../properties/outcomes.ts';
import type { Property } from '../../properties/properties.ts';
import { statsOf, type RunStats } from '../../properties/stats.ts';
import type { History, HistoryEntry } from '../../core/history.ts';
import type { Reach } from '../../core/reach.ts';
import type { FaultPlan } from '../../core/plan.ts';
import type { Workload } from '../../core/workload.ts';
import type { InputShape } from './arbitraries.ts';
import { inputs } from './arbitraries.ts';
import type { Counterexample } from './result.ts';
import { inputStream } from './input-stream.ts';
import { SampleTally } from './tally.ts';

/** One run's input: what fast-check draws. */
export interface CheckInput {
  plan: FaultPlan;
  workload: Workload;
  /** Tie-breaks among events due at the same instant (the model world's event queue). */
  schedule: number[];
}

export type Maybe<T> = T | Promise<T>;

/** Where a history-free run writes its entries as it goes (the world's `EntrySink`). */
export interface EntrySink {
  push(entry: HistoryEntry): unknown;
}

export interface Runner {
  run(input: CheckInput): Maybe<History>;
  /** The same run with no history kept: the sink `open` makes from the run's frame (what its history
   *  would say besides its entries) gets each entry as it is written; returns what the model's
   *  machines reached. Synchronous; a runner that has it is judged this way, and `run` is used only
   *  where a history is needed (a counterexample, a report, a policy's failure). */
  runInto?(input: CheckInput, open: (frame: HistoryFrame) => EntrySink): Reach;
  /** The runner has no event queue of its own (real code orders its events): the drawn schedule
   *  is dropped, so that runs, cache keys and counterexamples do not depend on it. */
  ignoresSchedule?: boolean;
  /** The model world recomputes a history from its input: counterexamples need not carry it. */
  replayable?: boolean;
  /** Bound on memoized judgements (the cache is cleared when it is passed). */
  cacheSize?: number;
}

/** One run as the tally and the shrink read it. */
export interface Judged {
  judgement: Judgement;
  stats: RunStats;
  /** What the model's machines reached (absent where real code ran). */
  coverage: Reach | undefined;
  /** Absent when the run was judged as it went (`Runner.runInto`): `InputJudge.recorded` has it. */
  history?: History;
}

export type Recorded = Judged & { history: History };

/** Apply `f` now if `x` is a value, after it resolves if it is a promise. */
export function andThen<T, U>(x: Maybe<T>, f: (t: T) => Maybe<U>): Maybe<U> {
  return x instanceof Promise ? x.then(f) : f(x);
}

/** Runs and judgements of one runner; the fault-free reference once per workload. A run is judged
 *  as it goes where the runner can (no history kept), else from its history. Memoized only when
 *  asked (`memo`): the sampled runs are all different, the shrink revisits its candidates. */
export class InputJudge {
  private readonly references = new Map<string, Reference>();
  /** The same by the workload object (a search's inputs are drawn once and run under many combinations). */
  private readonly byWorkload = new WeakMap<Workload, Reference>();
  private readonly judged = new Map<string, Judged>();
  /** Runs are judged as they go (the runner has `runInto`, every property is a fold). */
  readonly historyFree: boolean;

  constructor(
    readonly runner: Runner,
    private readonly properties: readonly Property[],
    /** Count each run's vacuity stats (a search that reads only verdicts and outcomes need not). */
    private readonly withStats = true,
  ) {
    this.historyFree = runner.runInto !== undefined && judgedAsTheRunGoes(properties);
  }

  /** The input as the runner sees it (its schedule dropped if the runner has none). */
  inputOf(plan: FaultPlan, workload: Workload, schedule: number[]): CheckInput {
    return { plan, workload, schedule: this.runner.ignoresSchedule ? [] : schedule };
  }

  reference(workload: Workload): Maybe<Reference> {
    const same = this.byWorkload.get(workload);
    if (same) return same;
    const key = JSON.stringify(workload);
    const hit = this.references.get(key);
    if (hit) {
      this.byWorkload.set(workload, hit);
      return hit;
    }
    const input = { plan: [], workload, schedule: [] };
    if (this.historyFree) {
      const fold = new ReferenceFold();
      try {
        this.runner.runInto!(input, () => fold);
        this.references.set(key, fold.reference);
        return fold.reference;
      } catch {
        // A policy failed in the fault-free run: the recorded run below fails the same way, with its history.
      }
    }
    return andThen(this.runner.run(input), (h) => {
      const ref = referenceOf(h);
      this.references.set(key, ref);
      return ref;
    });
  }

  /** The run judged, history-free where the runner allows; with `memo`, remembered by its input. */
  run(input: CheckInput, memo = true): Maybe<Judged> {
    const key = memo ? keyOf(input) : '';
    const hit = memo ? this.judged.get(key) : undefined;
    if (hit) return hit;
    const judged = this.historyFree ? this.runFree(input) : this.record(input);
    return memo ? andThen(judged, (j) => this.remember(key, j)) : judged;
  }

  /** Remember a judged run (a sampled run the shrink will start from). */
  remember(key: string, j: Judged): Judged {
    if (this.judged.size > (this.runner.cacheSize ?? 5000)) this.judged.clear();
    this.judged.set(key, j);
    return j;
  }

  /** The run with its history, judged from it; with `memo`, remembered by its input. */
  recorded(input: CheckInput, memo = false): Maybe<Recorded> {
    const key = memo ? keyOf(input) : '';
    const hit = memo ? this.judged.get(key) : undefined;
    if (hit?.history) return hit as Recorded;
    const recorded = this.record(input);
    return memo ? andThen(recorded, (j) => this.remember(key, j) as Recorded) : recorded;
  }

  private record(input: CheckInput): Maybe<Recorded> {
    return andThen(this.runner.run(input), (history) =>
      andThen(this.reference(input.workload), (reference) => ({
        history,
        judgement: judge(history, reference, this.properties),
        stats: statsOf(history),
        coverage: history.coverage,
      })),
    );
  }

  private runFree(input: CheckInput): Maybe<Judged> {
    return andThen(this.reference(input.workload), (reference) => {
      let sink: RunJudge | undefined;
      let coverage: Reach;
      try {
        coverage = this.runner.runInto!(input, (frame) => (sink = new RunJudge(this.properties, reference, frame, this.withStats)));
      } catch {
        // A policy (or a property) failed mid-run: the recorded run fails the same way, and its
        // error carries the history up to there, which the report shows.
        return this.record(input);
      }
      return { ...sink!.finish(coverage), coverage };
    });
  }
}

/** What memoized runs are keyed by. */
export function keyOf(input: CheckInput): string {
  return JSON.stringify([input.plan, input.workload, input.schedule]);
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
  const sampled = eachInput(inputStream(arb, o.seed, o.runs), ([plan, workload, schedule], i) => {
    if (o.onProgress && i % every === 0) o.onProgress(i, o.runs);
    const input = judge.inputOf(plan, workload, schedule);
    // History-free runs are cheap and all different: only a violating one is remembered, for the
    // shrink that starts there. A runner of real code has each run remembered, so that the shrink
    // never runs an input again that this phase judged (real code may answer otherwise).
    const judged = judge.run(input, !judge.historyFree);
    if (judged instanceof Promise) isAsync = true;
    return andThen(judged, (j) => {
      tally.add(j);
      let violates = false;
      for (const p of o.properties) {
        if (j.judgement.verdicts[p.name]!.holds) continue;
        violates = true;
        if (!firstViolation.has(p.name)) firstViolation.set(p.name, i);
      }
      if (violates && judge.historyFree) judge.remember(keyOf(input), j);
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
  // Real code ran: only its history says what happened (the model world would tell another story).
  const judged = judge.runner.replayable ? judge.run(input) : judge.recorded(input);
  return andThen(judged, ({ history, judgement }) => ({
    faults: input.plan,
    workload: input.workload,
    schedule: input.schedule,
    ...found,
    why: judgement.verdicts[p.name]!.why ?? '',
    outcomes: judgement.outcomes.map((o) => ({ callId: o.callId, outcome: o.outcome })),
    ...(judge.runner.replayable || !history ? {} : { history: history.entries }),
  }));
}

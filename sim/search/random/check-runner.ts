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
// reference and the shrink's candidates are found in the run store (search/run-store.ts) where it has
// them. Only violating sampled runs are kept there (the shrink starts at them); a runner of real code
// has every run kept.
//
// A runner that returns histories synchronously is checked synchronously (`fc.property`, no
// promise anywhere: the model tier stays as fast as it was); one that returns promises through
// `fc.asyncProperty`. Which one it is, the first sampled run tells.
import fc from 'fast-check';
import type { Property } from '../../../properties/properties.ts';
import type { History } from '../../core/history.ts';
import type { InputShape } from './arbitraries.ts';
import { inputs, shapeKey } from './arbitraries.ts';
import type { Counterexample } from './result.ts';
import { keptDraws } from './input-stream.ts';
import { SampleTally } from './tally.ts';
import type { RunConfig } from '../../plugins/run-config.ts';
import { propertyBit } from '../run-store.ts';

export {
  andThen,
  InputJudge,
  type CheckInput,
  type EntrySink,
  type Judged,
  type Maybe,
  type Recorded,
  type Runner,
} from './input-judge.ts';
import { andThen, InputJudge, type CheckInput, type Judged, type Maybe, type Runner } from './input-judge.ts';
import type { Drawn } from './run-keys.ts';

/** What a random check reads of a run's config (plugins/run-config.ts): any tier's runner takes it. */
export type RandomCheckConfig = Pick<RunConfig, 'properties' | 'seed' | 'runs'>;

/** What watches a random check as it runs. */
export interface RandomCheckObserver {
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

/** `f` over the drawn inputs in order, waiting for each that returns a promise. */
function eachInput(items: Iterator<Drawn>, f: (d: Drawn, i: number) => Maybe<unknown>, from = 0): Maybe<void> {
  for (let i = from; ; i++) {
    const next = items.next();
    if (next.done) return;
    const r = f(next.value, i);
    if (r instanceof Promise) return r.then(() => eachInput(items, f, i + 1));
  }
}

/** Both phases over one runner, drawing inputs of `shape`. Synchronous for a synchronous runner (see the overloads). */
export function randomCheck(
  runner: Runner & { run(input: CheckInput): History },
  config: RandomCheckConfig,
  shape: InputShape,
  observe?: RandomCheckObserver,
): RandomCheck;
export function randomCheck(
  runner: Runner,
  config: RandomCheckConfig,
  shape: InputShape,
  observe?: RandomCheckObserver,
): Maybe<RandomCheck>;
export function randomCheck(
  runner: Runner,
  config: RandomCheckConfig,
  shape: InputShape,
  observe: RandomCheckObserver = {},
): Maybe<RandomCheck> {
  const { properties, seed, runs } = config;
  const { onProgress, onSample } = observe;
  const arb = inputs(shape);
  const judge = new InputJudge(runner, properties);
  const tally = new SampleTally(properties);
  const every = observe.progressEvery ?? 1;
  let isAsync = false;
  // The index of the first run that violated each property: its shrink starts there.
  const firstViolation = new Map<string, number>();
  const key = shapeKey(shape);
  // Inputs another check of this thread drew too: their runs are kept whole, for the checks still to come.
  const shared = keptDraws.has(key, seed, runs);
  const sampled = eachInput(keptDraws.stream(key, arb, seed, runs), (drawn, i) => {
    if (onProgress && i % every === 0) onProgress(i, runs);
    // A model run is found in the run store where another cell ran the same draw alike, else run (and
    // kept there, if shared: `InputJudge.sampled`). A runner of real code has each run kept, so that the
    // shrink never runs an input again that this phase judged (real code may answer otherwise).
    const judged = judge.sampled(drawn, shared);
    if (judged instanceof Promise) isAsync = true;
    return andThen(judged, (j) => {
      tally.add(j);
      let violates = false;
      for (const p of properties) {
        if (j.judgement.verdicts[p.name]!.holds) continue;
        violates = true;
        if (!firstViolation.has(p.name)) firstViolation.set(p.name, i);
      }
      if (violates && judge.historyFree) judge.keep(judge.inputOf(drawn[0], drawn[1], drawn[2]), j);
      onSample?.(j);
    });
  });
  return andThen(sampled, () => {
    onProgress?.(runs, runs);
    const counterexamples = new Map<string, Counterexample>();
    const violated = properties.filter((p) => tally.violated(p));
    const shrinkAll = (k: number): Maybe<RandomCheck> => {
      if (k === violated.length) return { tally, counterexamples, judge };
      const p = violated[k]!;
      return andThen(shrink(judge, arb, key, p, seed, firstViolation.get(p.name)!, isAsync), (ce) => {
        counterexamples.set(p.name, ce);
        return shrinkAll(k + 1);
      });
    };
    return shrinkAll(0);
  });
}

/**
 * The shrink of `p`'s first violation, run by fast-check from its replay path. A candidate whose run
 * the store has (this shrink's, another property's, another combination's that agrees on every knob
 * the run read) is not run again. And a model's whole shrink is kept there: it is a function of where
 * it starts (the shape `shape` draws from, the seed, the first violation) and of its candidates'
 * answers, each a function of the knob values its run read, so a combination that agrees on every knob
 * any candidate read ends where it ended without walking fast-check's shrink tree again (a tenth of a
 * comparison's time went to shrinking, a third of it fast-check's own). Under `node --cpu-prof`, one
 * run each against 7842e69: the full matrix's shrinking stage 7.90 → 4.92 s. With the certificates kept
 * too (search/certify.ts), the full matrix in one thread (`runComparison`, tsx): 41.96 → 34.45 s CPU.
 */
function shrink(
  judge: InputJudge,
  arb: fc.Arbitrary<Drawn>,
  shape: string,
  p: Property,
  seed: number,
  firstViolation: number,
  isAsync: boolean,
): Maybe<Counterexample> {
  const bit = propertyBit(p);
  const key = !isAsync && bit !== 0 && judge.keepsShrinks ? `s${bit};${seed};${firstViolation};${shape}` : null;
  const kept = key === null ? undefined : judge.stored(key, (s) => s.shrunk !== undefined)?.summary.shrunk;
  if (kept) {
    const [plan, workload, schedule] = kept.drawn;
    const found = { seed: kept.seed, path: kept.path, runsToFailure: firstViolation + 1, shrinks: kept.shrinks };
    return counterexampleOf(judge, p, judge.inputOf(plan, workload, schedule), found);
  }
  let reads = 0;
  const holds = ([plan, workload, schedule]: Drawn) => {
    const input = judge.inputOf(plan, workload, schedule);
    const known = judge.known(input, p);
    if (known) {
      reads |= known.reads;
      return known.holds;
    }
    return andThen(judge.judged(input), (j) => {
      reads |= j.reads;
      return j.judgement.verdicts[p.name]!.holds;
    });
  };
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
    if (key !== null)
      judge.note(key, reads, { shrunk: { drawn: [plan, workload, schedule], seed: found.seed, path: found.path, shrinks: found.shrinks } });
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
  const judged = judge.runner.replayable ? judge.judged(input, false) : judge.recorded(input);
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

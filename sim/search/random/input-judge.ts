// What the check runner judges a run with: its input, the runner that runs it (the model world or
// real code), and `InputJudge`, which runs and judges inputs for the runner. A runner with `runInto`
// (the model world) is judged as the run goes, without a history; one is recorded only where a
// report reads it (check-runner.ts says when). Every run it may reuse (a workload's fault-free
// reference, the shrink's candidates) it asks of the run store first (search/run-store.ts): the
// thread's store for the model world; for real code, a store of the judge's own, always on (its
// runs are not a function of their input: a shrink never runs again what the sampling judged).
import type { HistoryFrame } from '../../../properties/fold.ts';
import { judge, judgedAsTheRunGoes, RunJudge, type Judgement } from '../../../properties/judge.ts';
import { ReferenceFold, referenceOf, type Reference } from '../../../properties/outcomes.ts';
import type { Property } from '../../../properties/properties.ts';
import { countsOf } from '../../../properties/stats.ts';
import type { History, HistoryEntry } from '../../core/history.ts';
import type { FaultPlan } from '../../core/plan.ts';
import type { Workload } from '../../core/workload.ts';
import { ALL_KNOBS } from '../../world/knob-reads.ts';
import type { Ran } from '../../world/unrecorded.ts';
import { LOUD, propertyBit, RunStore, SILENT, type RunScope, type RunSummary, type Stored } from '../run-store.ts';
import type { SampledRun } from '../shared-parts.ts';
import { drawnKey, keyOf, referenceKey, type Drawn } from './run-keys.ts';

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
  /** `run`, with the knobs the run read (the model world). */
  record?(input: CheckInput): Recording;
  /** The same run with no history kept: the sink `open` makes from the run's frame (what its history
   *  would say besides its entries) gets each entry as it is written; returns what the model's
   *  machines reached and the knobs the run read. Synchronous; a runner that has it is judged this
   *  way, and `run` is used only where a history is needed (a counterexample, a report, a policy's failure). */
  runInto?(input: CheckInput, open: (frame: HistoryFrame) => EntrySink): Ran;
  /** The runner has no event queue of its own (real code orders its events): the drawn schedule
   *  is dropped, so that runs, store keys and counterexamples do not depend on it. */
  ignoresSchedule?: boolean;
  /** The model world recomputes a history from its input: counterexamples need not carry it. */
  replayable?: boolean;
  /** Where its runs are kept and found (the model world's runner: this thread's run store, for its
   *  combination and world). Without it, the judge keeps its runs in a store of its own. */
  store?: RunScope;
}

/** A recorded run and the knobs it read. */
export interface Recording {
  history: History;
  reads: number;
}

/** One run as the tally and the shrink read it. */
/** A judged run: what the tally reads (a sampled run as the run store keeps it: search/shared-parts.ts,
 *  whose `coverage` is absent where real code ran, and whose `reads` are every knob where unknown: a
 *  recorded run, real code), with its history where it was recorded (absent when judged as it went,
 *  `Runner.runInto`: `InputJudge.recorded` has it). */
export interface Judged extends SampledRun {
  history?: History;
}

export type Recorded = Judged & { history: History };

/** Apply `f` now if `x` is a value, after it resolves if it is a promise. */
export function andThen<T, U>(x: Maybe<T>, f: (t: T) => Maybe<U>): Maybe<U> {
  return x instanceof Promise ? x.then(f) : f(x);
}

/** SILENT | LOUD of a judgement's outcomes (search/run-store.ts). */
export function outcomeFlags(j: Judgement): number {
  let flags = 0;
  for (const o of j.outcomes) {
    if (o.outcome === 'silent-empty' || o.outcome === 'silent-hang') flags |= SILENT;
    else if (o.outcome === 'error') flags |= LOUD;
  }
  return flags;
}

/** A workload's fault-free reference and the knobs its run read. */
export interface ReferenceRun {
  reference: Reference;
  reads: number;
}

/** Runs and judgements of one runner. A run is judged as it goes where the runner can (no history
 *  kept), else from its history. A workload's fault-free reference and a shrink's candidates are
 *  found in the run store where it has them (`Runner.store`). */
export class InputJudge {
  /** Runs are judged as they go (the runner has `runInto`, every property is a fold). */
  readonly historyFree: boolean;
  private readonly store: RunScope | undefined;
  private readonly bits: number[];
  private readonly judgedBits: number;
  /** Which judge made a stored sampled run (`sampled`): its properties in order, and whether it counts stats. */
  private readonly sampleTag: string;

  constructor(
    readonly runner: Runner,
    private readonly properties: readonly Property[],
    /** Count each run's vacuity stats (a search that reads only verdicts and outcomes need not). */
    private readonly withStats = true,
  ) {
    this.historyFree = runner.runInto !== undefined && judgedAsTheRunGoes(properties);
    this.store = runner.runInto ? runner.store : new RunStore().fixedScope();
    this.bits = properties.map(propertyBit);
    this.judgedBits = this.bits.includes(0) ? 0 : this.bits.reduce((a, b) => a | b, 0);
    this.sampleTag = `${this.bits.join(',')}${withStats ? ' stats' : ''}`;
  }

  /** The input as the runner sees it (its schedule dropped if the runner has none). */
  inputOf(plan: FaultPlan, workload: Workload, schedule: number[]): CheckInput {
    return { plan, workload, schedule: this.runner.ignoresSchedule ? [] : schedule };
  }

  /** The workload's fault-free reference: from the store, or its own run. */
  reference(workload: Workload): Maybe<ReferenceRun> {
    const key = referenceKey(workload);
    const stored = this.store?.find(key);
    if (stored?.summary.reference) return { reference: stored.summary.reference, reads: stored.reads };
    return andThen(this.computeReference(workload), (ran) => {
      this.store?.add(key, ran.reads, { reference: ran.reference });
      return ran;
    });
  }

  private computeReference(workload: Workload): Maybe<ReferenceRun> {
    const input = { plan: [], workload, schedule: [] };
    if (this.runner.runInto) {
      const fold = new ReferenceFold();
      try {
        const { reads } = this.runner.runInto(input, () => fold);
        return { reference: fold.reference, reads };
      } catch {
        // A policy failed in the fault-free run: the recorded run below fails the same way, with its history.
      }
    }
    return andThen(this.runner.run(input), (h) => ({ reference: referenceOf(h), reads: ALL_KNOBS }));
  }

  /** What the store knows of the run of the input keyed `key` (`keyOf`) under this runner's combination
   *  (the first summary `accept` takes). By key: its reader (the mitigation finder) asks of the same
   *  inputs under many combinations, and works each key out once. */
  stored(key: string, accept?: (s: RunSummary) => boolean): Stored | undefined {
    return this.store?.find(key, accept);
  }

  /** Whether a shrink of a model run is kept in the store (search/random/check-runner.ts `shrink`). */
  get keepsShrinks(): boolean {
    return this.historyFree && (this.store?.keepsShrinks ?? false);
  }

  /** Facts about the run of the input keyed `key` (which read `reads`) from a reader of its own (the mitigation finder). */
  note(key: string, reads: number, facts: Partial<RunSummary>): void {
    this.store?.add(key, reads, facts);
  }

  /** Whether `input`'s run holds `p`, where the store knows it, and the knobs that run read. */
  known(input: CheckInput, p: Property): { holds: boolean; reads: number } | undefined {
    const bit = this.bits[this.properties.indexOf(p)] ?? 0;
    const stored = bit === 0 ? undefined : this.store?.find(keyOf(input));
    if (!stored || (stored.summary.judged & bit) === 0) return undefined;
    return { holds: (stored.summary.violated & bit) === 0, reads: stored.reads };
  }

  /** The run judged, history-free where the runner allows. With `keep`, its summary goes to the store
   *  (a sampled run the shrink will start from, a candidate, a run of real code). */
  judged(input: CheckInput, keep = true): Maybe<Judged> {
    const judged = this.historyFree ? this.runFree(input) : this.record(input);
    return keep && this.store ? andThen(judged, (j) => this.keep(input, j)) : judged;
  }

  /**
   * A sampled run of the drawn input. Where the input is `shared` (another check of this thread drew it:
   * `KeptDraws.has`), from the run store where another check judged it under values this combination
   * agrees on for every knob that run read, with the same properties and stats; else run as it goes
   * and kept there whole. The cells of a comparison draw the same inputs under combinations that differ
   * in knobs most runs never read: in the full matrix about 93% of the cells' sampled runs were found
   * (58% in the default one). Inputs no other check drew (`check`, a stream too long to keep) are run
   * and not kept: keeping them cost `check --runs 30000` 40% more CPU and 65 MB, for nothing. A model run's
   * judgement, stats and coverage are a function of its input, the world's options and the knob values it
   * and its reference read (search/run-store.ts), which is what the store keys by. `compare --matrix
   * full --quiet` alternated with the build before: 56.7 and 73.8 → 45.0 and 48.0 s CPU
   * (docs/performance.md). Speed only (off: `runStore.samples`, or `RUN_STORE=off` with the rest of the
   * store): test/sim/search/sampled-runs.test.ts checks equality on and off.
   */
  sampled(drawn: Drawn, shared: boolean): Maybe<Judged> {
    const input = this.inputOf(drawn[0], drawn[1], drawn[2]);
    if (!shared || !this.historyFree || this.store === undefined || this.judgedBits === 0 || !this.store.keepsSamples)
      return this.judged(input, !this.historyFree);
    const key = this.runner.ignoresSchedule ? keyOf(input) : drawnKey(drawn);
    const tag = this.sampleTag;
    const stored = this.store.find(key, (s) => s.sampledBy === tag);
    if (stored?.summary.sampled) return stored.summary.sampled;
    return andThen(this.runFree(input), (j) => {
      // A run that fell back to its recorded form (a policy failed) is not kept: it carries a history.
      if (j.history === undefined)
        this.store!.add(key, j.reads, { ...this.summaryOf(j), sampled: this.store!.shared.run(j), sampledBy: tag });
      return j;
    });
  }

  /** What the store keeps of a judged run. */
  summaryOf(j: Judged): Partial<RunSummary> {
    let violated = 0;
    for (let i = 0; i < this.properties.length; i++) if (!j.judgement.verdicts[this.properties[i]!.name]!.holds) violated |= this.bits[i]!;
    return { judged: this.judgedBits, violated: violated & this.judgedBits, outcomes: outcomeFlags(j.judgement) };
  }

  /** Keep a judged run's summary. A run whose reads are unknown is kept as reading every knob: only
   *  its own combination finds it. */
  keep(input: CheckInput, j: Judged): Judged {
    this.store?.add(keyOf(input), j.reads, this.summaryOf(j));
    return j;
  }

  /** The run with its history, judged from it. */
  recorded(input: CheckInput): Maybe<Recorded> {
    return this.record(input);
  }

  private record(input: CheckInput): Maybe<Recorded> {
    const recording: Maybe<Recording> = this.runner.record
      ? this.runner.record(input)
      : andThen(this.runner.run(input), (history) => ({ history, reads: ALL_KNOBS }));
    return andThen(recording, ({ history, reads }) =>
      andThen(this.reference(input.workload), ({ reference, reads: referenceReads }) => ({
        history,
        judgement: judge(history, reference, this.properties),
        stats: countsOf(history),
        coverage: history.coverage,
        reads: reads | referenceReads,
      })),
    );
  }

  private runFree(input: CheckInput): Maybe<Judged> {
    return andThen(this.reference(input.workload), ({ reference, reads: referenceReads }) => {
      let sink: RunJudge | undefined;
      let ran: Ran;
      try {
        ran = this.runner.runInto!(input, (frame) => (sink = new RunJudge(this.properties, reference, frame, this.withStats)));
      } catch {
        // A policy (or a property) failed mid-run: the recorded run fails the same way, and its
        // error carries the history up to there, which the report shows.
        return this.record(input);
      }
      return { ...sink!.finish(ran.reach), coverage: ran.reach, reads: ran.reads | referenceReads };
    });
  }
}

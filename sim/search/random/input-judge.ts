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
import { countsOf, type RunCounts } from '../../../properties/stats.ts';
import type { History, HistoryEntry } from '../../core/history.ts';
import type { Reach } from '../../core/reach.ts';
import type { FaultPlan } from '../../core/plan.ts';
import type { Workload, WorkloadStep } from '../../core/workload.ts';
import { ALL_KNOBS } from '../../world/knob-reads.ts';
import type { Ran } from '../../world/unrecorded.ts';
import { LOUD, propertyBit, RunStore, SILENT, type RunScope, type RunSummary, type Stored } from '../run-store.ts';

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
export interface Judged {
  judgement: Judgement;
  stats: RunCounts;
  /** What the model's machines reached (absent where real code ran). */
  coverage: Reach | undefined;
  /** Absent when the run was judged as it went (`Runner.runInto`): `InputJudge.recorded` has it. */
  history?: History;
  /** The knobs the run and its reference read (every knob where unknown: a recorded run, real code). */
  reads: number;
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

  /** Facts about the run of the input keyed `key` (which read `reads`) from a reader of its own (the mitigation finder). */
  note(key: string, reads: number, facts: Partial<RunSummary>): void {
    this.store?.add(key, reads, facts);
  }

  /** Whether `input`'s run holds `p`, where the store knows it. */
  known(input: CheckInput, p: Property): boolean | undefined {
    const bit = this.bits[this.properties.indexOf(p)] ?? 0;
    const stored = bit === 0 ? undefined : this.store?.find(keyOf(input));
    if (!stored || (stored.summary.judged & bit) === 0) return undefined;
    return (stored.summary.violated & bit) === 0;
  }

  /** The run judged, history-free where the runner allows. With `keep`, its summary goes to the store
   *  (a sampled run the shrink will start from, a candidate, a run of real code). */
  judged(input: CheckInput, keep = true): Maybe<Judged> {
    const judged = this.historyFree ? this.runFree(input) : this.record(input);
    return keep && this.store ? andThen(judged, (j) => this.keep(input, j)) : judged;
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

/** The fields of a step the world reads (world/world.ts `issueCalls`, core/workload.ts `nextCalls`),
 *  in their usual values, as a number below 24; -1 for anything else. */
function stepCode(step: WorkloadStep | undefined): number {
  if (step === undefined || step === null) return -1;
  const { method, progress, overlap, idempotent } = step;
  const m = method === 'tools/call' ? 0 : method === 'tools/list' ? 1 : -1;
  const i = idempotent === undefined ? 0 : idempotent === true ? 1 : idempotent === false ? 2 : -1;
  if (m < 0 || i < 0 || typeof progress !== 'boolean' || typeof overlap !== 'boolean') return -1;
  return m * 12 + i * 4 + (progress ? 2 : 0) + (overlap ? 1 : 0);
}

/** What a workload is kept by: a letter per step where each step reads as usual, else its JSON
 *  (which starts with `[`, no letter). A run reads nothing of a step but the fields `stepCode`
 *  encodes, so workloads with one key run alike. Asked once per sampled run (each is drawn anew):
 *  JSON.stringify of the workload was most of a reference lookup. */
export function workloadKey(workload: Workload): string {
  let key = '';
  for (let i = 0; i < workload.length; i++) {
    const code = stepCode(workload[i]);
    if (code < 0) return JSON.stringify(workload);
    key += String.fromCharCode(65 + code);
  }
  return key;
}

/** The store key of a workload's fault-free run (`keyOf` of it, empty plan and schedule). */
export function referenceKey(workload: Workload): string {
  return `0;||${workloadKey(workload)}`;
}

/** What stored runs are keyed by: each fault's request and name (length-prefixed), the schedule's
 *  picks, then the workload's key (`workloadKey`); its JSON where a fault or a pick is unusual (a
 *  key that starts with `[`, which no other does). A run reads nothing of a fault but these two
 *  fields. The shrink asks it of every candidate: the JSON of the whole input was its largest cost. */
export function keyOf(input: CheckInput): string {
  const { plan, schedule } = input;
  let key = `${plan.length};`;
  for (let i = 0; i < plan.length; i++) {
    const f = plan[i];
    if (f === undefined || f === null || typeof f.fault !== 'string' || typeof f.at !== 'number') return jsonKey(input);
    key += `${f.at},${f.fault.length},${f.fault}`;
  }
  key += '|';
  for (let i = 0; i < schedule.length; i++) {
    const pick = schedule[i];
    if (typeof pick !== 'number') return jsonKey(input);
    key += `${pick},`;
  }
  return `${key}|${workloadKey(input.workload)}`;
}

function jsonKey(input: CheckInput): string {
  return JSON.stringify([input.plan, input.workload, input.schedule]);
}

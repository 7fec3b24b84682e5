// What the check runner judges a run with: its input, the runner that runs it (the model world or
// real code), and `InputJudge`, which runs and judges inputs for the runner, memoized, with the
// fault-free reference once per workload. A runner with `runInto` (the model world) is judged as
// the run goes, without a history; one is recorded only where a report reads it (check-runner.ts
// says when).
import type { HistoryFrame } from '../../../properties/fold.ts';
import { judge, judgedAsTheRunGoes, RunJudge, type Judgement } from '../../../properties/judge.ts';
import { ReferenceFold, referenceOf, type Reference } from '../../../properties/outcomes.ts';
import type { Property } from '../../../properties/properties.ts';
import { statsOf, type RunStats } from '../../../properties/stats.ts';
import type { History, HistoryEntry } from '../../core/history.ts';
import type { Reach } from '../../core/reach.ts';
import type { FaultPlan } from '../../core/plan.ts';
import type { Workload, WorkloadStep } from '../../core/workload.ts';
import type { SharedReferences } from './reference-memo.ts';
import type { SharedVerdicts } from './verdict-memo.ts';

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
  /** Fault-free references shared with other combinations' judges (reference-memo.ts; a model world
   *  of a tracked combination): asked before a workload's reference is run here. */
  references?: SharedReferences;
  /** The shrink's verdicts shared with other combinations' shrinks (verdict-memo.ts), for these properties. */
  verdicts?(properties: readonly Property[]): SharedVerdicts | undefined;
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
    const key = workloadKey(workload);
    const hit = this.references.get(key);
    if (hit) {
      this.byWorkload.set(workload, hit);
      return hit;
    }
    const compute = () => this.computeReference(workload);
    const shared = this.runner.references;
    return andThen(shared ? shared.get(key, workload, compute) : compute(), (ref) => {
      this.references.set(key, ref);
      return ref;
    });
  }

  /** The workload's fault-free run, judged for its reference. */
  private computeReference(workload: Workload): Maybe<Reference> {
    const input = { plan: [], workload, schedule: [] };
    if (this.historyFree) {
      const fold = new ReferenceFold();
      try {
        this.runner.runInto!(input, () => fold);
        return fold.reference;
      } catch {
        // A policy failed in the fault-free run: the recorded run below fails the same way, with its history.
      }
    }
    return andThen(this.runner.run(input), referenceOf);
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

/** What a workload's reference is kept by: a letter per step where each step reads as usual, else
 *  its JSON (which starts with `[`, no letter). The fault-free run reads nothing of a step but the
 *  fields `stepCode` encodes, so workloads with one key have one reference. Asked once per sampled
 *  run (each is drawn anew): JSON.stringify of the workload was most of a reference lookup. */
export function workloadKey(workload: Workload): string {
  let key = '';
  for (let i = 0; i < workload.length; i++) {
    const code = stepCode(workload[i]);
    if (code < 0) return JSON.stringify(workload);
    key += String.fromCharCode(65 + code);
  }
  return key;
}

/** What memoized runs are keyed by: each fault's request and name (length-prefixed), the schedule's
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

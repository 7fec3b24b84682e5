// The model world as a check runner (`worldRunner`), and as one of a tracked combination (read-set.ts),
// `trackedRunner`: it tells which knobs the
// run it judged last read, and with a `RunReplays` it replays, instead of running, a run of another
// combination of the same comparison that read only knobs on which the two agree: its entries into
// the new run's sink, in order, and its reach. A run is a function of its input and of the knob
// values it reads (test/search/read-set.test.ts), so the sink judges the same run either way.
import type { Combination } from '../../models/policies.ts';
import type { Workload } from '../../core/workload.ts';
import { HISTORY_VERSION, type History, type HistoryEntry } from '../../core/history.ts';
import { sortPlan } from '../../core/plan.ts';
import type { Reach } from '../../core/reach.ts';
import type { HistoryFrame } from '../../properties/fold.ts';
import { runWorldInto } from '../../world/unrecorded.ts';
import { runWorld, type EntrySink as WorldSink, type WorldOptions } from '../../world/world.ts';
import { keyOf, type CheckInput, type EntrySink } from './input-judge.ts';
import { ALL_KNOBS, differing, knobValues, noteReads, readsDuring, trackedCombination } from './read-set.ts';

/** What a run's history says besides its entries. */
export function frameOf(combination: Combination, input: CheckInput): HistoryFrame {
  return { version: HISTORY_VERSION, combination, workload: input.workload, plan: sortPlan(input.plan), schedule: input.schedule };
}

/** The model world as a check runner: synchronous, replayable from its input alone, and judged as
 *  it runs (no history kept) unless a history is asked for. */
export function worldRunner(combination: Combination, world: Partial<WorldOptions> = {}) {
  return {
    run: (input: CheckInput): History => runWorld({ combination, ...input }, world),
    runInto: (input: CheckInput, open: (frame: HistoryFrame) => EntrySink): Reach =>
      runWorldInto({ combination, ...input }, open(frameOf(combination, input)), world),
    replayable: true,
  };
}

interface Replay {
  values: readonly string[];
  reads: number;
  entries: readonly HistoryEntry[];
  reach: Reach;
}

/** Inputs kept at most (then all are dropped), and runs kept per input: a bound on memory. An input's
 *  first runs are kept, not its latest: a run kept is promoted to the old heap, and churning them
 *  cost a full matrix more than its replays saved. */
const INPUTS_KEPT = 3000;
const RUNS_PER_INPUT = 8;

/** Runs of one comparison in one thread (its properties and world: compare.ts `replaysFor`), by input
 *  and by the kinds of entry their sink read (the world builds only those). */
export class RunReplays {
  private readonly byInput = new Map<string, Replay[]>();
  readonly counts = { asked: 0, replayed: 0 };

  find(key: string, values: readonly string[]): Replay | undefined {
    this.counts.asked++;
    for (const r of this.byInput.get(key) ?? []) {
      if ((differing(r.values, values) & r.reads) === 0) {
        this.counts.replayed++;
        return r;
      }
    }
    return undefined;
  }

  /** Whether a run of this input would be kept (`add`): else it is not recorded. */
  wants(key: string): boolean {
    return (this.byInput.get(key)?.length ?? 0) < RUNS_PER_INPUT;
  }

  add(key: string, r: Replay): void {
    let kept = this.byInput.get(key);
    if (!kept) {
      if (this.byInput.size >= INPUTS_KEPT) this.byInput.clear();
      this.byInput.set(key, (kept = []));
    }
    if (kept.length < RUNS_PER_INPUT) kept.push(r);
  }
}

const kindNames = new WeakMap<ReadonlySet<string>, string>();
function kindsOf(sink: WorldSink): string {
  if (!sink.reads) return '*';
  let names = kindNames.get(sink.reads);
  if (names === undefined) kindNames.set(sink.reads, (names = [...sink.reads].sort().join()));
  return names;
}

/** `worldRunner` of a tracked combination, with the knobs the last run read. A judge runs each
 *  workload's fault-free reference (no faults, no schedule) once, before the first run of that
 *  workload, and remembers it: such a run's reads are kept by workload, for every run after it. */
export function trackedRunner(combination: Combination, world: Partial<WorldOptions> = {}, replays?: RunReplays) {
  const tracked = trackedCombination(combination);
  const base = worldRunner(tracked, world);
  const values = knobValues(combination);
  // By workload object, then by its JSON (the judge finds a reference by either).
  const referenceReads = new WeakMap<Workload, number>();
  const referenceReadsByKey = new Map<string, number>();
  const referenceReadsOf = (w: Workload): number | undefined => {
    let r = referenceReads.get(w);
    if (r === undefined) {
      r = referenceReadsByKey.get(JSON.stringify(w));
      if (r !== undefined) referenceReads.set(w, r);
    }
    return r;
  };
  let last: { reads: number; workload: Workload | null } = { reads: ALL_KNOBS, workload: null };
  let calls = 0;
  let callsSeen = 0;
  const track = <T>(input: CheckInput, f: () => T): T => {
    calls++;
    // A run that throws (a policy failed) read unknown knobs; its recorded run comes next.
    last = { reads: ALL_KNOBS, workload: null };
    const [value, reads] = readsDuring(f);
    last = { reads, workload: input.workload };
    if (input.plan.length === 0 && input.schedule.length === 0) {
      referenceReads.set(input.workload, reads);
      referenceReadsByKey.set(JSON.stringify(input.workload), reads);
    }
    return value;
  };
  let replaying = replays !== undefined;
  const runInto = (input: CheckInput, open: (frame: HistoryFrame) => EntrySink): Reach => {
    if (!replays || !replaying) return base.runInto(input, open);
    const sink = open(frameOf(tracked, input)) as WorldSink;
    const key = `${kindsOf(sink)}|${keyOf(input)}`;
    const hit = replays.find(key, values);
    if (hit) {
      noteReads(hit.reads);
      for (const e of hit.entries) sink.push(e);
      return hit.reach;
    }
    if (!replays.wants(key)) return base.runInto(input, () => sink);
    const entries: HistoryEntry[] = [];
    const recording = { ...(sink.reads ? { reads: sink.reads } : {}), push: (e: HistoryEntry) => (entries.push(e), sink.push(e)) };
    const [reach, reads] = readsDuring(() => base.runInto(input, () => recording));
    replays.add(key, { values, reads, entries, reach });
    return reach;
  };
  return {
    ...base,
    run: (input: CheckInput) => track(input, () => base.run(input)),
    runInto: (input: CheckInput, open: (frame: HistoryFrame) => EntrySink) => track(input, () => runInto(input, open)),
    /** No more replays (a check's shrink: its candidates are its own, and would crowd out the sampled runs). */
    stopReplays: () => {
      replaying = false;
    },
    /** What the run judged last read, its reference's reads counted in: every knob where unknown (no
     *  run since the last ask: the judge remembered its judgement). */
    readsOfLast: (): number => {
      const ran = calls !== callsSeen;
      callsSeen = calls;
      const ref = last.workload ? referenceReadsOf(last.workload) : undefined;
      return !ran || ref === undefined ? ALL_KNOBS : last.reads | ref;
    },
  };
}

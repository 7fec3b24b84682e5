// The model world as a check runner (`worldRunner`), and as one of a tracked combination (read-set.ts),
// `trackedRunner`: it tells which knobs the run it judged last read, which the mitigation finder
// keeps with the run's flags (compare/mitigation-memo.ts). A run is a function of its input and of
// the knob values it reads (test/search/read-set.test.ts).
//
// Replaying a cell's runs for another cell that agrees on every knob they read was built and
// measured (w7-memo): 73% of a 192-cell cut's sampled runs replayed, but the full matrix ran
// 138.8 s and peaked at 738 MB with it, against 127.7 s and 574 MB without (kept runs are promoted
// to the old heap). It is not here; the finder's memo, which keeps flags, not entries, is.
import type { Combination } from '../../models/policies.ts';
import type { Workload } from '../../core/workload.ts';
import { HISTORY_VERSION, type History } from '../../core/history.ts';
import { sortPlan } from '../../core/plan.ts';
import type { Reach } from '../../core/reach.ts';
import type { HistoryFrame } from '../../properties/fold.ts';
import { runWorldInto } from '../../world/unrecorded.ts';
import { runWorld, type WorldOptions } from '../../world/world.ts';
import type { CheckInput, EntrySink } from './input-judge.ts';
import { ALL_KNOBS, readsDuring, trackedCombination } from './read-set.ts';

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

/** `worldRunner` of a tracked combination, with the knobs the last run read. A judge runs each
 *  workload's fault-free reference (no faults, no schedule) once, before the first run of that
 *  workload, and remembers it: such a run's reads are kept by workload, for every run after it. */
export function trackedRunner(combination: Combination, world: Partial<WorldOptions> = {}) {
  const tracked = trackedCombination(combination);
  const base = worldRunner(tracked, world);
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
  return {
    ...base,
    run: (input: CheckInput) => track(input, () => base.run(input)),
    runInto: (input: CheckInput, open: (frame: HistoryFrame) => EntrySink) => track(input, () => base.runInto(input, open)),
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

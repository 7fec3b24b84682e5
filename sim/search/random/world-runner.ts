// The model world as a check runner (`worldRunner`), and as one of a tracked combination (read-set.ts),
// `trackedRunner`: it tells which knobs the run it judged last read, which the mitigation finder
// keeps with the run's flags (compare/mitigation-memo.ts). A run is a function of its input and of
// the knob values it reads (test/sim/search/read-set.test.ts).
//
// Replaying a cell's runs for another cell that agrees on every knob they read was built and
// measured (w7-memo): 73% of a 192-cell cut's sampled runs replayed, but the full matrix ran
// 138.8 s and peaked at 738 MB with it, against 127.7 s and 574 MB without (kept runs are promoted
// to the old heap). It is not here; the finder's memo, which keeps flags, not entries, is.
import type { Combination } from '../../../models/policies.ts';
import type { Workload } from '../../core/workload.ts';
import { HISTORY_VERSION, type History } from '../../core/history.ts';
import { sortPlan } from '../../core/plan.ts';
import type { Reach } from '../../core/reach.ts';
import type { HistoryFrame } from '../../../properties/fold.ts';
import { runWorldInto } from '../../world/unrecorded.ts';
import { runWorld, type WorldOptions } from '../../world/world.ts';
import { workloadKey, type CheckInput, type EntrySink } from './input-judge.ts';
import { ALL_KNOBS, readsDuring, trackedCombination } from './read-set.ts';
import { sharedReferences } from './reference-memo.ts';
import { sharedVerdicts } from './verdict-memo.ts';
import type { Property } from '../../../properties/properties.ts';

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

/** The knobs each workload's fault-free reference read, kept as the judge keeps the reference itself
 *  (input-judge.ts `workloadKey`: workloads of one key share one reference, and so its reads), with
 *  the workload object as a shortcut. `Judge` (check.ts) and `trackedRunner` both keep them here. */
export class ReferenceReads {
  private readonly byKey = new Map<string, number>();
  private readonly byWorkload = new WeakMap<Workload, number>();

  get(workload: Workload): number | undefined {
    let reads = this.byWorkload.get(workload);
    if (reads === undefined) {
      reads = this.byKey.get(workloadKey(workload));
      if (reads !== undefined) this.byWorkload.set(workload, reads);
    }
    return reads;
  }

  set(workload: Workload, reads: number): void {
    this.byKey.set(workloadKey(workload), reads);
    this.byWorkload.set(workload, reads);
  }
}

/** `worldRunner` of a tracked combination, with the knobs the last run read. A judge gets each
 *  workload's fault-free reference (no faults, no schedule) once, before the first run of that
 *  workload, from the shared references or its own run (reference-memo.ts): its reads, which that
 *  memo tells either way, are kept by workload, for every run after it. */
export function trackedRunner(combination: Combination, world: Partial<WorldOptions> = {}) {
  const tracked = trackedCombination(combination);
  const base = worldRunner(tracked, world);
  const referenceReads = new ReferenceReads();
  /** The knobs read by the runs since the last ask (a recorded run's reference may run after it), and
   *  the workload of the last run, null while a run that threw is the last. */
  let pending = 0;
  let lastWorkload: Workload | null = null;
  let calls = 0;
  let callsSeen = 0;
  const track = <T>(input: CheckInput, f: () => T): T => {
    calls++;
    // A run that throws (a policy failed) read unknown knobs; its recorded run comes next.
    lastWorkload = null;
    const [value, reads] = readsDuring(f);
    pending |= reads;
    lastWorkload = input.workload;
    return value;
  };
  const runner = {
    ...base,
    references: sharedReferences(combination, world, (workload, reads) => referenceReads.set(workload, reads)),
    verdicts: (properties: readonly Property[]) => sharedVerdicts(combination, world, properties, () => runner.readsOfLast()),
    run: (input: CheckInput) => track(input, () => base.run(input)),
    runInto: (input: CheckInput, open: (frame: HistoryFrame) => EntrySink) => track(input, () => base.runInto(input, open)),
    /** What the run judged last read, its reference's reads counted in (and those of any other run
     *  since the last ask): every knob where unknown (no run since the last ask: the judge remembered
     *  its judgement; the last run threw). */
    readsOfLast: (): number => {
      const ran = calls !== callsSeen;
      callsSeen = calls;
      const reads = pending;
      pending = 0;
      const ref = lastWorkload ? referenceReads.get(lastWorkload) : undefined;
      return !ran || ref === undefined ? ALL_KNOBS : reads | ref;
    },
  };
  return runner;
}

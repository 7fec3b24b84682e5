// The model world as a check runner (`worldRunner`): synchronous, replayable from its input alone,
// judged as it runs (no history kept) unless a history is asked for, each run returning the knobs it
// read, and reused through this thread's run store (search/run-store.ts) for its combination
// and world.
import type { Combination } from '../../../models/policies.ts';
import { HISTORY_VERSION, type History } from '../../core/history.ts';
import { sortPlan } from '../../core/plan.ts';
import type { HistoryFrame } from '../../../properties/fold.ts';
import { runWorldInto, type Ran } from '../../world/unrecorded.ts';
import { runWorld, runWorldReading, type WorldOptions } from '../../world/world.ts';
import { runStore } from '../run-store.ts';
import type { CheckInput, EntrySink, Recording, Runner } from './input-judge.ts';

/** What a run's history says besides its entries. */
export function frameOf(combination: Combination, input: CheckInput): HistoryFrame {
  return { version: HISTORY_VERSION, combination, workload: input.workload, plan: sortPlan(input.plan), schedule: input.schedule };
}

/** The model world as a check runner of `combination`. */
export function worldRunner(combination: Combination, world: WorldOptions) {
  const store = runStore.scope(combination, world);
  return {
    run: (input: CheckInput): History => runWorld({ combination, ...input }, world),
    record: (input: CheckInput): Recording => runWorldReading({ combination, ...input }, world),
    runInto: (input: CheckInput, open: (frame: HistoryFrame) => EntrySink): Ran =>
      runWorldInto({ combination, ...input }, (seen) => open(frameOf(seen, input)), world),
    replayable: true,
    ...(store ? { store } : {}),
  } satisfies Runner;
}

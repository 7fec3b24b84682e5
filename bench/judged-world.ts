// The world with history recording off: its entries go straight into the property folds
// (properties/fold-set.ts, the exhaustive explorer's sink) and nothing is kept but the folds'
// states. What a history-free random run costs: the engine's time less the history's.
import type { HistoryFrame, Property, PropertyVerdict } from '../properties/fold.ts';
import { FoldSet } from '../properties/fold-set.ts';
import { referenceOf, type Reference } from '../properties/outcomes.ts';
import { PROPERTIES } from '../properties/properties.ts';
import { HISTORY_VERSION } from '../core/history.ts';
import { UnrecordedWorld } from '../world/unrecorded.ts';
import { DEFAULT_WORLD, runWorld, type RunInput } from '../world/world.ts';

/** Judges runs of one combination and workload without a history: the fault-free reference is
 *  computed once, as a history-free path would. */
export class FoldedJudge {
  private readonly reference: Reference;
  steps = 0;

  constructor(
    private readonly input: Omit<RunInput, 'plan'>,
    private readonly properties: readonly Property[] = PROPERTIES,
  ) {
    this.reference = referenceOf(runWorld({ ...input, plan: [] }));
  }

  run(plan: RunInput['plan']): PropertyVerdict[] {
    const { combination, workload, schedule = [] } = this.input;
    const frame: HistoryFrame = { version: HISTORY_VERSION, combination, workload, plan, schedule };
    const folds = FoldSet.start(this.properties, this.reference, frame);
    // The world random checks run history-free (world/unrecorded.ts), writing into the folds only.
    const world = new UnrecordedWorld({ ...this.input, plan }, DEFAULT_WORLD);
    world.runInto(folds);
    this.steps = world.steps;
    return folds.verdicts();
  }
}

// The world with history recording off, judged as a history-free random run is judged: its entries
// go straight into a RunJudge (properties/judge.ts: the property folds, each call's outcome and the
// run's stats), and nothing is kept but their states. What a sampled run of `check` costs: the
// engine's time less the history's, plus the judging a history-free run still does.
import { HISTORY_VERSION } from '../sim/core/history.ts';
import { sortPlan } from '../sim/core/plan.ts';
import type { HistoryFrame, Property } from '../properties/fold.ts';
import { RunJudge, type Judgement } from '../properties/judge.ts';
import { referenceOf, type Reference } from '../properties/outcomes.ts';
import { PROPERTIES } from '../properties/properties.ts';
import type { RunCounts } from '../properties/stats.ts';
import { UnrecordedWorld } from '../sim/world/unrecorded.ts';
import { DEFAULT_WORLD, runWorld, type RunInput } from '../sim/world/world.ts';

/** Judges runs of one combination and workload without a history: the fault-free reference is
 *  computed once, as a history-free path would. */
export class FoldedJudge {
  private readonly reference: Reference;
  steps = 0;

  constructor(
    private readonly input: Omit<RunInput, 'plan'>,
    private readonly properties: readonly Property[] = PROPERTIES,
  ) {
    this.reference = referenceOf(runWorld({ ...input, plan: [] }, DEFAULT_WORLD));
  }

  run(plan: RunInput['plan']): { judgement: Judgement; stats: RunCounts } {
    const { combination, workload, schedule = [] } = this.input;
    const frame: HistoryFrame = { version: HISTORY_VERSION, combination, workload, plan: sortPlan(plan), schedule };
    const judge = new RunJudge(this.properties, this.reference, frame);
    // The world random checks run history-free (world/unrecorded.ts), writing into the judge only.
    const world = new UnrecordedWorld({ ...this.input, plan }, DEFAULT_WORLD);
    const reach = world.runInto(judge);
    this.steps = world.steps;
    return judge.finish(reach);
  }
}

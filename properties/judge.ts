// Everything the oracles say about one run: each call's outcome and each property's verdict, and
// the run's vacuity stats. From a whole history (`judge`, `countsOf`), or as the run goes with no
// history kept (`RunJudge`, a world's entry sink): the same folds over the same entries.
import type { History, HistoryEntry } from '../sim/core/history.ts';
import type { ReachLike } from '../sim/core/reach.ts';
import { FoldSet, readsWith } from './fold-set.ts';
import { checkHistory, isCheckProperty, type HistoryFrame, type Property, type PropertyVerdict } from './fold.ts';
import { callOutcomes, OUTCOMES_READ, OutcomesFold, type CallOutcome, type Reference } from './outcomes.ts';
import { PROPERTIES } from './properties.ts';
import { NO_COUNTS, STATS_READ, StatsFold, type RunCounts } from './stats.ts';

const OUTCOMES_AND_STATS_READ: readonly HistoryEntry['kind'][] = [...OUTCOMES_READ, ...STATS_READ];

export interface Judgement {
  outcomes: CallOutcome[];
  verdicts: Record<string, PropertyVerdict>;
}

export function judge(history: History, reference: Reference, properties: readonly Property[] = PROPERTIES): Judgement {
  const outcomes = callOutcomes(history, reference);
  const verdicts: Record<string, PropertyVerdict> = {};
  // A simple-form property is judged whole, with the outcomes already at hand: what its fold (fold.ts) does.
  for (const p of properties) verdicts[p.name] = isCheckProperty(p) ? p.check(history, outcomes) : checkHistory(p, history, reference);
  return { outcomes, verdicts };
}

/** Whether `RunJudge` judges these properties as `judge` does: a simple-form property reads the
 *  whole history (its coverage too), which a run that keeps none cannot give it. */
export function judgedAsTheRunGoes(properties: readonly Property[]): boolean {
  return !properties.some(isCheckProperty);
}

/** A run judged as it goes: the world's entry sink. Its judgement and stats equal `judge` and
 *  `countsOf` over the history the same run would have recorded. */
export class RunJudge {
  private readonly folds: FoldSet;
  private readonly outcomes: OutcomesFold;
  private readonly stats: StatsFold | null;

  constructor(
    private readonly properties: readonly Property[],
    reference: Reference,
    frame: HistoryFrame,
    /** Count the run's stats (false: `finish` gives none, for a caller that reads only verdicts and outcomes). */
    withStats = true,
  ) {
    this.folds = FoldSet.start(properties, reference, frame);
    this.outcomes = new OutcomesFold(reference);
    this.stats = withStats ? new StatsFold() : null;
  }

  /** What the folds, the outcomes and the stats read (the world builds no other entries for them). */
  get reads(): ReadonlySet<HistoryEntry['kind']> {
    return readsWith(this.folds.reads, this.stats ? OUTCOMES_AND_STATS_READ : OUTCOMES_READ);
  }

  push(e: HistoryEntry): void {
    this.folds.push(e);
    this.outcomes.push(e);
    this.stats?.push(e);
  }

  /** The verdicts and stats once the run is over (empty stats when not counted); `coverage`: what its machines reached. */
  finish(coverage: ReachLike | undefined): { judgement: Judgement; stats: RunCounts } {
    const verdicts: Record<string, PropertyVerdict> = {};
    const each = this.folds.verdicts();
    for (let i = 0; i < each.length; i++) verdicts[this.properties[i]!.name] = each[i]!;
    return { judgement: { outcomes: this.outcomes.outcomes(), verdicts }, stats: this.stats ? this.stats.finish(coverage) : NO_COUNTS };
  }
}

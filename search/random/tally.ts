// What the first phase of a check counts over its sampled runs, whichever tier ran them: the call
// outcomes, the vacuity stats, and per property in how many runs its situation was reached and it
// was violated. Then each property's result, with a counterexample where the second phase found one.
import type { Judgement } from '../../properties/judge.ts';
import { countOutcomes, emptyCounts } from '../../properties/outcomes.ts';
import type { Property } from '../../properties/properties.ts';
import { addStats, emptyStats, statsOf } from '../../properties/stats.ts';
import type { Counterexample, PropertyResult } from './check.ts';
import type { History } from '../../core/history.ts';

export class SampleTally {
  readonly outcomes = emptyCounts();
  readonly stats = emptyStats();
  private readonly reached: Record<string, number> = {};
  private readonly violations: Record<string, number> = {};

  constructor(private readonly properties: readonly Property[]) {}

  add(history: History, judgement: Judgement): void {
    countOutcomes(judgement.outcomes, this.outcomes);
    addStats(this.stats, statsOf(history));
    for (const p of this.properties) {
      const v = judgement.verdicts[p.name]!;
      if (v.reached) this.reached[p.name] = (this.reached[p.name] ?? 0) + 1;
      if (!v.holds) this.violations[p.name] = (this.violations[p.name] ?? 0) + 1;
    }
  }

  violated(p: Property): boolean {
    return (this.violations[p.name] ?? 0) > 0;
  }

  /** The property's result: holds or vacuous without a counterexample, violated with one. */
  result(p: Property, found: ({ counterexample: Counterexample } & Pick<PropertyResult, 'minimal' | 'shorter'>) | null): PropertyResult {
    const base = { property: p.name, outcomes: this.outcomes, reached: this.reached[p.name] ?? 0, violations: this.violations[p.name] ?? 0 };
    if (!found) return { ...base, verdict: base.reached > 0 ? 'holds' : 'vacuous', counterexample: null };
    return { ...base, verdict: 'violated', ...found };
  }
}

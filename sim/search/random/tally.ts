// What the first phase of a check counts over its sampled runs, whichever tier ran them: the call
// outcomes, the vacuity stats, the machine states and transitions reached (their union), and per
// property in how many runs its situation was reached and it was violated. Then each property's
// result, with a counterexample where the second phase found one.
import { countOutcomes, emptyCounts } from '../../../properties/outcomes.ts';
import type { Property } from '../../../properties/properties.ts';
import { StatsTotal } from '../../../properties/stats.ts';
import { decideVerdict } from '../../../properties/vacuity.ts';
import { addReach, emptyReach } from '../../core/reach.ts';
import type { Judged } from './input-judge.ts';
import type { Counterexample, PropertyResult } from './result.ts';

export class SampleTally {
  readonly outcomes = emptyCounts();
  readonly stats = new StatsTotal();
  /** What the model's machines reached over all sampled runs (nothing where real code ran). */
  readonly reach = emptyReach();
  private readonly reached: Record<string, number> = {};
  private readonly violations: Record<string, number> = {};

  constructor(private readonly properties: readonly Property[]) {}

  add({ judgement, stats, coverage }: Judged): void {
    countOutcomes(judgement.outcomes, this.outcomes);
    this.stats.add(stats);
    if (coverage) addReach(this.reach, coverage);
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
    const reached = this.reached[p.name] ?? 0;
    const base = { property: p.name, outcomes: this.outcomes, reached, violations: this.violations[p.name] ?? 0 };
    const verdict = decideVerdict({ violated: this.violated(p), reached: reached > 0 });
    if (!found) {
      if (verdict === 'violated') throw new Error(`internal: ${p.name} was violated but no counterexample was found`);
      return { ...base, verdict, counterexample: null };
    }
    return { ...base, verdict, ...found };
  }
}

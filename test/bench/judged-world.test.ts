// The bench's history-off world must judge as the engine's history does: the same judgement (verdicts
// and outcomes) and stats from the judge fed directly as from the recorded history, on the record-000
// cell's random plans; and the
// balance bound the bench prints must be the pool's greedy split.
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { balanceBound } from '../../bench/exhaustive-runs.ts';
import { FoldedJudge } from '../../bench/judged-world.ts';
import { ALPHABET_000, VULNERABLE_000 } from '../../sim/core/cells.ts';
import { judge } from '../../properties/judge.ts';
import { referenceOf } from '../../properties/outcomes.ts';
import { statsOf, statsOfCounts } from '../../properties/stats.ts';
import { faultPlan, workload } from '../../sim/search/random/arbitraries.ts';
import { runWorld } from '../../sim/world/world.ts';
import { DEFAULT_WORLD } from '../../sim/world/world.ts';

describe('history-off world', () => {
  let violated = 0;
  test.prop([workload({ overlap: false }), fc.array(faultPlan({ faults: ALPHABET_000 }), { minLength: 1, maxLength: 5 })], {
    numRuns: 100,
  })('gives every property the verdict the recorded history gives', (w, plans) => {
    const folded = new FoldedJudge({ combination: VULNERABLE_000, workload: w });
    const reference = referenceOf(runWorld({ combination: VULNERABLE_000, workload: w, plan: [] }, DEFAULT_WORLD));
    for (const plan of plans) {
      const history = runWorld({ combination: VULNERABLE_000, workload: w, plan }, DEFAULT_WORLD);
      const fromFolds = folded.run(plan);
      expect(fromFolds.judgement).toEqual(judge(history, reference));
      expect(statsOfCounts(fromFolds.stats)).toEqual(statsOf(history));
      expect(folded.steps).toBeGreaterThan(0);
      if (Object.values(fromFolds.judgement.verdicts).some((v) => !v.holds)) violated++;
    }
  });
  it('was compared on violating runs too', () => expect(violated).toBeGreaterThan(0));
});

describe('balance bound', () => {
  it('is total work over the busiest worker, longest workloads handed out first', () => {
    expect(
      balanceBound(
        [
          { calls: 3, states: 10 },
          { calls: 1, states: 10 },
        ],
        2,
      ),
    ).toBe(2);
    expect(
      balanceBound(
        [
          { calls: 3, states: 30 },
          { calls: 2, states: 5 },
          { calls: 1, states: 5 },
        ],
        2,
      ),
    ).toBe(1.33);
    expect(balanceBound([{ calls: 1, states: 7 }], 4)).toBe(1);
  });
});

// Certificates and the renumbering shrink: a plan stuck at a local minimum of fast-check's shrinker
// is certified not minimal, with the shorter plan; the renumbering shrink gets past that minimum.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyByName } from '../../../properties/properties.ts';
import { plannedFault } from '../../../sim/search/random/arbitraries.ts';
import { ALPHABET_000, VULNERABLE_000 } from '../../../sim/core/cells.ts';
import { certify } from '../../../sim/search/certify.ts';
import { CombinationJudge } from '../../../sim/search/random/check.ts';
import { renumberedDrops, withRenumberingShrink } from '../../../sim/search/random/plan-shrink.ts';
import type { FaultPlan, PlannedFault } from '../../../sim/core/plan.ts';
import { call } from '../../../sim/core/workload.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';
import { DEFAULT_CONFIG } from '../../../sim/plugins/run-config.ts';

// Where seeds 26 and 31 of the record-000 cell stopped before the renumbering shrink.
const STUCK: FaultPlan = [
  { fault: 'http-502', at: 0 },
  { fault: 'config-reset', at: 1 },
  { fault: 'http-502', at: 4 },
];
const noSilentEmpty = propertyByName('no-silent-empty')!;

describe('minimality certificates', () => {
  it('certify a plan with a shorter one as not minimal, naming the shorter plan', () => {
    const c = certify(
      VULNERABLE_000,
      noSilentEmpty,
      { faults: STUCK, workload: [call(), call()], schedule: [] },
      ALPHABET_000,
      DEFAULT_WORLD,
    );
    expect(c.minimal).toBe(false);
    expect(c.shorter!.faults).toHaveLength(2);
    expect(
      new CombinationJudge(VULNERABLE_000, DEFAULT_CONFIG).recorded(c.shorter!.faults, [call(), call()], []).judgement.verdicts[
        'no-silent-empty'
      ]!.holds,
    ).toBe(false);
  });

  it('certify the shortest plan as minimal', () => {
    const c = certify(
      VULNERABLE_000,
      noSilentEmpty,
      {
        faults: [
          { fault: 'config-reset', at: 0 },
          { fault: 'http-502', at: 2 },
        ],
        workload: [call()],
        schedule: [],
      },
      ALPHABET_000,
      DEFAULT_WORLD,
    );
    expect(c).toEqual({ minimal: true, shorter: null });
  });
});

describe('the renumbering shrink', () => {
  it('drops one fault and moves every later one down by 1 to 3 requests', () => {
    expect(renumberedDrops(STUCK)).toContainEqual([
      { fault: 'config-reset', at: 0 },
      { fault: 'http-502', at: 2 },
    ]);
    expect(renumberedDrops([{ fault: 'http-502', at: 3 }])).toEqual([]);
  });

  it('gets fast-check past the local minimum: from the stuck plan, shrinking reaches two faults', () => {
    const judge = new CombinationJudge(VULNERABLE_000, DEFAULT_CONFIG);
    const arb = withRenumberingShrink(fc.array(plannedFault(ALPHABET_000), { maxLength: 8 }));
    const holds = (plan: FaultPlan) => judge.recorded(plan, [call(), call()], []).judgement.verdicts['no-silent-empty']!.holds;
    expect(holds(STUCK)).toBe(false);
    // Shrink the stuck plan as fast-check would, taking the first candidate that still fails.
    let value: fc.Value<PlannedFault[]> = new fc.Value([...STUCK], undefined);
    for (let progressed = true; progressed; ) {
      progressed = false;
      for (const candidate of arb.shrink(value.value, value.context)) {
        if (!holds(candidate.value)) {
          value = candidate;
          progressed = true;
          break;
        }
      }
    }
    expect(value.value).toHaveLength(2);
    // fast-check's own candidates alone stop at the three faults.
    const plain = fc.array(plannedFault(ALPHABET_000), { maxLength: 8 });
    expect([...plain.shrink([...STUCK], undefined)].some((c) => !holds(c.value))).toBe(false);
  });
});

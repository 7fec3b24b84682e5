// Each property's monitor (read entry by entry, as exploration does) must give the same verdict,
// holds and reached, as the property judging the whole history: on random worlds over every knob,
// the whole fault vocabulary, overlapping calls, lists and schedules.
import { test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { judge } from '../../properties/judge.ts';
import { monitorFor } from '../../properties/monitors.ts';
import { referenceOf } from '../../properties/outcomes.ts';
import { PROPERTIES } from '../../properties/properties.ts';
import { inputs } from '../../search/random/arbitraries.ts';
import { runWorld } from '../../world/world.ts';
import { anyCombination } from '../fixtures/combinations.ts';

describe('monitors', () => {
  test.prop([anyCombination, inputs({ workload: { overlap: true, lists: true } })], { numRuns: 1500 })(
    'give every property the verdict it gives the whole history',
    (c, [plan, workload, schedule]) => {
      const history = runWorld({ combination: c, plan, workload, schedule });
      const reference = referenceOf(runWorld({ combination: c, plan: [], workload }));
      const { entries, ...frame } = history;
      const judged = judge(history, reference);
      for (const p of PROPERTIES) {
        const m = monitorFor(p, reference, frame);
        for (const e of entries) m.observe(e);
        const { holds, reached } = judged.verdicts[p.name]!;
        expect(m.verdict(), p.name).toEqual({ holds, reached });
      }
    },
  );
});

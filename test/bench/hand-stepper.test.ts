// The benchmark's hand-written reducer must be the same logic as the engine it is compared with:
// on random worlds over every knob, it writes byte-identical histories (coverage included).
import { test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { handEngine } from '../../bench/hand-stepper.ts';
import { inputs } from '../../sim/search/random/arbitraries.ts';
import { historyJson } from '../../sim/core/history.ts';
import { runWorld } from '../../sim/world/world.ts';
import { anyLegacyCombination as anyCombination } from '../fixtures/combinations.ts';

describe('hand-written reducer', () => {
  test.prop([anyCombination, inputs({ workload: { overlap: true, lists: true } })], { numRuns: 1000 })(
    "gives the compiled engine's history on any combination, plan, workload and schedule",
    (c, [plan, workload, schedule]) => {
      const input = { combination: c, plan, workload, schedule };
      expect(historyJson(runWorld(input, { engine: handEngine }))).toBe(historyJson(runWorld(input, { engine: 'compiled' })));
    },
  );
});

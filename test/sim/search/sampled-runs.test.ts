// A cell's sampled runs taken from the run store (search/random/input-judge.ts `InputJudge.sampled`)
// are speed only: the same comparisons give the same results with them on and off — every cell's
// verdicts, counterexamples, certificates and stats, every finding's cause and mitigations — over
// random combinations beside combinations a knob away (cells that draw the same inputs and mostly
// read the same knobs), two alphabets and random seeds. Reached: with them on, fewer worlds are run.
// A run judged for some properties is never handed to a check of others.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { FaultName } from '../../../models/faults.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { runConfig } from '../../../sim/plugins/run-config.ts';
import { checkCombination } from '../../../sim/search/random/check.ts';
import { keptDraws } from '../../../sim/search/random/input-stream.ts';
import { runStore } from '../../../sim/search/run-store.ts';
import { runCensus } from '../../../sim/world/run-census.ts';
import { anyCombination } from '../../fixtures/combinations.ts';
import { compareCells, nearbyCells } from '../../fixtures/small-comparison.ts';

afterEach(() => {
  runStore.samples = true;
  runCensus.probe = null;
});

/** The comparison, and how many worlds it ran. */
async function counted(cells: Parameters<typeof compareCells>[0], seed: number) {
  let worlds = 0;
  runCensus.probe = () => void worlds++;
  const result = await compareCells(cells, seed, 40);
  runCensus.probe = null;
  return { result, worlds };
}

describe('sampled runs kept whole in the run store', () => {
  it('change no result of a comparison: the same with them on and off', async () => {
    let fewer = 0;
    await fc.assert(
      fc.asyncProperty(nearbyCells(2), async ({ cells, seed }) => {
        // Each side starts with the run store cleared, so that neither answers from the other's runs.
        runStore.clear();
        runStore.samples = true;
        const on = await counted(cells, seed);
        runStore.clear();
        runStore.samples = false;
        const off = await counted(cells, seed);
        expect(on.result).toEqual(off.result);
        if (on.worlds < off.worlds) fewer++;
      }),
      { numRuns: 40, seed: 11 },
    );
    // Reached: in many comparisons a cell took sampled runs from another's.
    expect(fewer).toBeGreaterThan(10);
  }, 120_000);

  it('are found only by a check of the same properties', () => {
    const faults: FaultName[] = ['http-502', 'config-reset', 'stream-cut'];
    const combination = fc.sample(anyCombination, { seed: 5, numRuns: 1 })[0]!;
    const some = runConfig({ seed: 3, runs: 60, properties: PROPERTIES.slice(0, 2) });
    const all = runConfig({ seed: 3, runs: 60, properties: PROPERTIES });
    // The same combination and inputs, judged for two properties twice (the second keeps its runs: its
    // inputs were drawn before), then for every one.
    const checks = () => {
      runStore.clear();
      keptDraws.clear();
      return [some, some, all].map((config) => checkCombination(combination, config, { faults }));
    };
    runStore.samples = true;
    const on = checks();
    runStore.samples = false;
    expect(on).toEqual(checks());
    expect(on[2]!.results.map((r) => r.property)).toEqual(PROPERTIES.map((p) => p.name));
  });
});

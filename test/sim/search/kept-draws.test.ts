// Kept draws (search/random/input-stream.ts `KeptDraws`) are speed only: the same comparisons give
// the same results with them on and off — every cell's verdicts, counterexamples, certificates and
// stats, every finding's cause and mitigations — over random combinations beside combinations a knob
// away (cells that draw the same stream), two alphabets and random seeds, with what earlier iterations
// kept; and the stream handed out is inputStream's, kept or not (another seed, fewer runs, more than
// KEPT_RUNS, which is never kept).
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { FaultName } from '../../../models/faults.ts';
import { inputs, shapeKey } from '../../../sim/search/random/arbitraries.ts';
import { inputStream, KEPT_RUNS, keptDraws } from '../../../sim/search/random/input-stream.ts';
import { runStore } from '../../../sim/search/run-store.ts';
import { compareCells, nearbyCells } from '../../fixtures/small-comparison.ts';

afterEach(() => {
  keptDraws.enabled = true;
});

describe('kept draws', () => {
  keptDraws.clear();
  it('change no result of a comparison: the same with them on and off', async () => {
    let counterexamples = 0;
    await fc.assert(
      fc.asyncProperty(nearbyCells(1), async ({ cells, seed }) => {
        // Each side starts with the run store cleared, so that neither answers from the other's runs.
        runStore.clear();
        keptDraws.enabled = true;
        const on = await compareCells(cells, seed, 40);
        runStore.clear();
        keptDraws.enabled = false;
        const off = await compareCells(cells, seed, 40);
        expect(on).toEqual(off);
        counterexamples += on.cells.flatMap((cell) => cell.results).filter((r) => r.counterexample).length;
      }),
      { numRuns: 10, seed: 7 },
    );
    // Reached: cells with shrunk counterexamples, whose shrink starts at a kept draw's index.
    expect(counterexamples).toBeGreaterThan(3);
  }, 120_000);

  it('hands out the stream inputStream draws, kept or not', () => {
    const shape = { plan: { faults: ['http-502', 'config-reset'] as FaultName[] } };
    const arb = inputs(shape);
    const key = shapeKey(shape);
    keptDraws.clear();
    const fresh = [...inputStream(arb, 5, 50)];
    expect([...keptDraws.stream(key, arb, 5, 50)]).toEqual(fresh);
    expect([...keptDraws.stream(key, arb, 5, 50)]).toEqual(fresh); // the kept one
    expect([...keptDraws.stream(key, arb, 6, 50)]).toEqual([...inputStream(arb, 6, 50)]); // another seed
    expect([...keptDraws.stream(key, arb, 5, 20)]).toEqual(fresh.slice(0, 20)); // fewer runs
    expect([...keptDraws.stream(key, arb, 5, KEPT_RUNS + 1)].slice(0, 50)).toEqual(fresh); // never kept
  });
});

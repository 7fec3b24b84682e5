// Shrinks kept in the run store (search/random/check-runner.ts `shrink`) are speed only: the same
// comparisons give the same results with them on and off (every counterexample, its seed, path and
// shrink steps, every certificate and finding), over random combinations beside combinations a knob
// away and random seeds. Reached: with them on, shrinks asked about fewer candidates (their runs were
// mostly in the store already, so the worlds run are the same: what is saved is fast-check's walk).
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InputJudge } from '../../../sim/search/random/input-judge.ts';
import { runStore } from '../../../sim/search/run-store.ts';
import type { FaultName } from '../../../models/faults.ts';
import { KNOBS } from '../../../sim/world/knob-reads.ts';
import { anyCombination } from '../../fixtures/combinations.ts';
import { away, cellsOf, compareCells } from '../../fixtures/small-comparison.ts';

const ALPHABETS: FaultName[][] = [
  ['http-502', 'config-reset'],
  ['stream-cut', 'session-expire', 'http-502'],
];

/** A random combination and four a knob away (each knob at another value), each under both alphabets
 *  (two shapes drawn from one seed), and a random seed. */
const nearby = fc
  .tuple(anyCombination, fc.nat(KNOBS.length - 1), fc.nat(4), fc.integer({ min: 1, max: 1000 }))
  .map(([c, knob, pick, seed]) => {
    const combinations = [c, ...[0, 1, 2, 3].map((i) => away(c, (knob + 3 * i) % KNOBS.length, pick + i))];
    const cells = ALPHABETS.flatMap((faults) => cellsOf(combinations, faults)).map((cell, index) => ({
      ...cell,
      index,
      id: `c${index}`,
      name: `cell ${index}`,
    }));
    return { cells, seed };
  });

afterEach(() => {
  runStore.shrinks = true;
});

/** The comparison, and how many shrink candidates it asked about. */
async function counted(cells: Parameters<typeof compareCells>[0], seed: number) {
  const asked = vi.spyOn(InputJudge.prototype, 'known');
  const result = await compareCells(cells, seed, 40);
  const candidates = asked.mock.calls.length;
  asked.mockRestore();
  return { result, candidates };
}

describe('shrinks kept in the run store', () => {
  it('change no result of a comparison: the same with them on and off', async () => {
    let fewer = 0;
    let shrunk = 0;
    await fc.assert(
      fc.asyncProperty(nearby, async ({ cells, seed }) => {
        runStore.clear();
        runStore.shrinks = true;
        const on = await counted(cells, seed);
        runStore.clear();
        runStore.shrinks = false;
        const off = await counted(cells, seed);
        expect(on.result).toEqual(off.result);
        if (on.candidates < off.candidates) fewer++;
        shrunk += on.result.cells.flatMap((c) => c.results ?? []).filter((r) => (r.counterexample?.shrinks ?? 0) > 0).length;
      }),
      { numRuns: 40, seed: 29 },
    );
    // Reached: counterexamples were shrunk, and a shrink of one cell answered another's.
    expect(shrunk).toBeGreaterThan(20);
    expect(fewer).toBeGreaterThan(10);
  }, 180_000);
});

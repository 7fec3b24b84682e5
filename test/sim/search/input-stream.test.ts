// The lazy input stream draws exactly fc.sample's sequence (the random check's counts and shrunk
// counterexamples depend on it, and fast-check does not export its own lazy sampler), one input at a
// time: a run of a million inputs holds one, and a stop between runs is seen at once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inputs } from '../../../sim/search/random/arbitraries.ts';
import { randomCheck } from '../../../sim/search/random/check-runner.ts';
import { inputStream, sampleLazily } from '../../../sim/search/random/input-stream.ts';
import { worldRunner } from '../../../sim/search/random/check.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { VULNERABLE_000 } from '../../../sim/core/cells.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';

describe('sampleLazily', () => {
  for (const seed of [0, 1, 3, 42, -7, 2 ** 31 - 1, 123_456_789]) {
    it(`draws fc.sample's inputs for seed ${seed}, in order`, () => {
      const arb = inputs({ plan: { faults: ['http-502', 'stream-cut', 'config-reset', 'server-restart'] } });
      expect([...sampleLazily(arb, seed, 400)]).toEqual(fc.sample(arb, { seed, numRuns: 400 }));
    });
  }

  it("inputStream (what the check draws from) gives fc.sample's inputs too", () => {
    const arb = inputs({});
    const drawn: unknown[] = [];
    const it = inputStream(arb, 5, 200);
    for (let n = it.next(); !n.done; n = it.next()) drawn.push(n.value);
    expect(drawn).toEqual(fc.sample(arb, { seed: 5, numRuns: 200 }));
  });

  it('draws one input per step: a million-run stream has drawn three after three steps', () => {
    let drawn = 0;
    const counted = fc.nat().map((n) => (drawn++, n));
    const stream = sampleLazily(counted, 1, 1_000_000);
    for (let i = 0; i < 3; i++) stream.next();
    expect(drawn).toBe(3);
  });
});

describe('the random check over the lazy stream', () => {
  it('stops at the first progress point after a stop, having run no more than it reported', () => {
    let ran = 0;
    const runner = worldRunner(VULNERABLE_000, DEFAULT_WORLD);
    const counting = {
      ...runner,
      run: (input: Parameters<typeof runner.run>[0]) => (ran++, runner.run(input)),
      runInto: (...a: Parameters<typeof runner.runInto>) => (ran++, runner.runInto(...a)),
    };
    const stop = new Error('stop');
    expect(() =>
      randomCheck(
        counting,
        { properties: PROPERTIES, seed: 1, runs: 1_000_000 },
        {},
        {
          progressEvery: 50,
          onProgress: (done) => {
            if (done >= 100) throw stop;
          },
        },
      ),
    ).toThrow(stop);
    // 100 sampled runs and the fault-free references of their workloads: nowhere near a million.
    expect(ran).toBeGreaterThanOrEqual(100);
    expect(ran).toBeLessThanOrEqual(200);
  });
});

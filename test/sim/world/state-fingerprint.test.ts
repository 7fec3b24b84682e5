// A state's fingerprint stands for its key: exploration merges two worlds when their fingerprints
// are equal, so they must be equal exactly when the keys are (barring a 64-bit collision, which
// none of these walks should meet), and a kept digest must never go stale (an object mutated after
// it was hashed would leave one: the fresh digest, computed from scratch, would differ).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAULT_VOCABULARY, type FaultName } from '../../../models/faults.ts';
import { freshDigestOf } from '../../../sim/core/digest.ts';
import { FoldSet } from '../../../properties/fold-set.ts';
import { referenceOf } from '../../../properties/outcomes.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { workload as anyWorkload } from '../../../sim/search/random/arbitraries.ts';
import { DEFAULT_WORLD, runWorld } from '../../../sim/world/world.ts';
import { ForkableWorld } from '../../../sim/world/fork.ts';
import { anyCombination } from '../../fixtures/combinations.ts';

describe('state fingerprints', () => {
  it('are equal exactly when the state keys are, and equal to a digest computed afresh', () => {
    const fingerprintOfKey = new Map<string, string>();
    const keyOfFingerprint = new Map<string, string>();
    let merged = 0;
    const arbitrary = fc.tuple(
      anyCombination,
      anyWorkload({ maxCalls: 3, overlap: true, lists: true }),
      fc.uniqueArray(fc.constantFrom(...FAULT_VOCABULARY), { minLength: 1, maxLength: 4 }),
      fc.array(fc.nat(5), { minLength: 40, maxLength: 40 }),
    );
    fc.assert(
      fc.property(arbitrary, ([combination, workload0, alphabet, choices]) => {
        const workload = workload0.length ? workload0 : [{ method: 'tools/call' as const, progress: true, overlap: false }];
        const reference = referenceOf(runWorld({ combination, workload, plan: [] }, DEFAULT_WORLD));
        const frame = { version: 1, combination, workload, plan: [], schedule: [] };
        for (let walk = 0; walk < 16; walk++) {
          let folds = FoldSet.start(PROPERTIES, reference, frame);
          let world = new ForkableWorld({ combination, workload, plan: [] }, DEFAULT_WORLD);
          let done = world.startPaused(folds);
          for (let step = 0; !done; step++) {
            const foldKey = folds.key(world.now);
            const key = world.stateKey() + foldKey;
            const kept = world.fingerprint(foldKey);
            const fresh = world.fingerprint(foldKey, freshDigestOf);
            expect(kept).toEqual(fresh);
            const fp = `${kept.hi}:${kept.lo}`;
            const known = fingerprintOfKey.get(key);
            if (known !== undefined) {
              expect(fp).toBe(known);
              merged++;
            } else {
              expect(keyOfFingerprint.get(fp), 'two different keys share a fingerprint').toBeUndefined();
              fingerprintOfKey.set(key, fp);
              keyOfFingerprint.set(fp, key);
            }
            const c = choices[(step + walk * 7) % choices.length]!;
            const faults: FaultName[] = c < 2 ? [alphabet[(c + walk + step) % alphabet.length]!] : [];
            folds = folds.clone();
            world = world.fork(folds);
            done = world.resume(faults);
          }
        }
      }),
      { numRuns: 120 },
    );
    // Reached: many distinct states, and many reached again by another path (merged).
    expect(fingerprintOfKey.size).toBeGreaterThan(600);
    expect(merged).toBeGreaterThan(1500);
  });
});

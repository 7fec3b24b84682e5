// Deduplication is sound only if two paused worlds with equal keys (world and property folds) have
// the same future. Random walks collect paused worlds; wherever two different paths reach the same
// key, both are run on, under the same random continuation of faults, and must write the same
// history (times relative to the pause) and reach the same verdicts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAULT_VOCABULARY, type FaultName } from '../../../models/faults.ts';
import { FoldSet } from '../../../properties/fold-set.ts';
import { referenceOf } from '../../../properties/outcomes.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { workload as anyWorkload } from '../../../sim/search/random/arbitraries.ts';
import type { HistoryEntry } from '../../../sim/core/history.ts';
import { DEFAULT_WORLD, runWorld } from '../../../sim/world/world.ts';
import { ForkableWorld as World } from '../../../sim/world/fork.ts';
import { anyCombination } from '../../fixtures/combinations.ts';

/** Deterministic choices from a seed (mulberry32): the walks and continuations of one test case. */
function chooser(seed: number) {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

class Recorder {
  entries: HistoryEntry[] = [];
  constructor(readonly folds: FoldSet) {}
  push(e: HistoryEntry) {
    this.entries.push(e);
    this.folds.push(e);
  }
}

describe('state keys', () => {
  it('equal keys have equal futures, and merged worlds were compared at all', () => {
    let compared = 0;
    const arbitrary = fc.tuple(
      anyCombination,
      anyWorkload({ maxCalls: 3, overlap: true, lists: true }),
      fc.uniqueArray(fc.constantFrom(...FAULT_VOCABULARY), { minLength: 1, maxLength: 4 }),
      fc.integer(),
    );
    fc.assert(
      fc.property(arbitrary, ([combination, workload0, alphabet, seed]) => {
        const workload = workload0.length ? workload0 : [{ method: 'tools/call' as const, progress: true, overlap: false }];
        const pick = chooser(seed);
        const faultsFor = (): FaultName[] => (pick(3) === 0 ? [alphabet[pick(alphabet.length)]!] : []);
        const reference = referenceOf(runWorld({ combination, workload, plan: [] }, DEFAULT_WORLD));
        const frame = { version: 1, combination, workload, plan: [], schedule: [] };
        const seen = new Map<string, { world: World; folds: FoldSet; path: string }>();
        for (let walk = 0; walk < 60; walk++) {
          let folds = FoldSet.start(PROPERTIES, reference, frame);
          let world = new World({ combination, workload, plan: [] }, DEFAULT_WORLD);
          let path = '';
          let done = world.startPaused(folds);
          while (!done) {
            const key = world.stateKey() + folds.key(world.now);
            const other = seen.get(key);
            if (!other) seen.set(key, { world, folds, path });
            else if (other.path !== path) {
              // Run both on under one continuation; compare what they write from here.
              const continuation = Array.from({ length: 40 }, faultsFor);
              const runOn = (w: World, fs: FoldSet) => {
                const rec = new Recorder(fs.clone());
                const f = w.fork(rec);
                const t0 = f.now;
                let i = 0;
                while (!f.resume(continuation[i++] ?? [])) {}
                const entries = rec.entries.map((e) => ({
                  ...e,
                  t: e.t - t0,
                  ...('deliverAt' in e ? { deliverAt: e.deliverAt - t0 } : {}),
                }));
                return { entries, verdicts: rec.folds.verdicts().map(({ holds, reached }) => ({ holds, reached })) };
              };
              expect(runOn(world, folds), `${other.path} vs ${path}`).toEqual(runOn(other.world, other.folds));
              compared++;
            }
            const faults = faultsFor();
            path += `${world.nextRequest}:${faults.join('+')};`;
            folds = folds.clone();
            world = world.fork(folds);
            done = world.resume(faults);
          }
        }
      }),
      { numRuns: 40 },
    );
    expect(compared).toBeGreaterThan(100);
  });
});

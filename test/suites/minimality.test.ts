// Minimality certificates: each record's failure, found and shrunk from 100 seeds, is certified
// minimal (no plan with fewer faults fails on its workload), and the exhaustive search agrees on
// the shortest plan. The certificates' searches are small and cached per combination.
import { describe, expect, it } from 'vitest';
import { propertyByName } from '../../properties/properties.ts';
import {
  ALPHABET_000,
  ALPHABET_003,
  ALPHABET_003_WITH_502,
  DOES_NOT_APPLY_003,
  VULNERABLE_000,
  VULNERABLE_003,
} from '../../sim/core/cells.ts';
import { check } from '../../index.ts';
import { exploreCombination, sequentialWorkloads } from '../../sim/search/exhaustive/exhaustive.ts';
import { call } from '../../sim/core/workload.ts';
import { runConfig } from '../../sim/plugins/run-config.ts';

const SEEDS = Array.from({ length: 100 }, (_, i) => i + 1);
const SEED_000 = {
  combination: VULNERABLE_000,
  faults: ALPHABET_000,
  property: 'no-silent-empty',
  shape: { workload: { overlap: false } },
};
const SEED_003 = {
  combination: VULNERABLE_003,
  faults: ALPHABET_003,
  property: 'no-silent-hang',
  shape: { workload: { overlap: false, progress: 'always' as const } },
};

function certified(cell: typeof SEED_000 | typeof SEED_003, seed: number) {
  const r = check(cell.combination, {
    faults: cell.faults,
    properties: [propertyByName(cell.property)!],
    seed,
    runs: 200,
    shape: cell.shape,
  }).results[0]!;
  return { found: r.verdict === 'violated', faults: r.counterexample?.faults.length, minimal: r.minimal };
}

describe('minimality certificates', () => {
  it('record 000: found within 200 runs and shrunk to a certified-minimal plan from every one of 100 seeds', () => {
    for (const seed of SEEDS) expect(certified(SEED_000, seed), `seed ${seed}`).toEqual({ found: true, faults: 2, minimal: true });
  });

  it('record 003: found within 200 runs and shrunk to a certified-minimal plan from every one of 100 seeds', () => {
    for (const seed of SEEDS) expect(certified(SEED_003, seed), `seed ${seed}`).toEqual({ found: true, faults: 1, minimal: true });
  });

  it('the exhaustive search finds the same shortest plans the shrinker does', () => {
    const e000 = exploreCombination(
      VULNERABLE_000,
      {
        faults: ALPHABET_000,
        depth: 2,
        workloads: sequentialWorkloads(2, 'any'),
      },
      runConfig({ properties: [propertyByName('no-silent-empty')!] }),
    );
    expect(e000.results[0]!.shortest).toEqual({
      faults: [
        { fault: 'config-reset', at: 0 },
        { fault: 'http-502', at: 2 },
      ],
      workload: [call()],
      why: "call 0 returned a well-formed result that differs from the fault-free run's ([]) with no error",
    });
    const e003 = exploreCombination(
      VULNERABLE_003,
      {
        faults: ALPHABET_003,
        depth: 2,
        workloads: sequentialWorkloads(2, 'always'),
      },
      runConfig({ properties: [propertyByName('no-silent-hang')!] }),
    );
    expect(e003.results[0]!.shortest).toEqual({
      faults: [{ fault: 'strip-header:transfer-encoding', at: 0 }],
      workload: [call(true)],
      why: "call 0 ended only by the client's deadline at t=60040 ms though the server had finished it (answer delivered)",
    });
  });

  it('the per-transport cell, where the greedy shrinker used to stop at three faults, is minimal too', () => {
    const perTransport = DOES_NOT_APPLY_003[0]!.combination;
    for (const seed of SEEDS.slice(0, 20)) {
      const r = check(perTransport, {
        faults: ALPHABET_003_WITH_502,
        properties: [propertyByName('no-silent-hang')!],
        seed,
        shape: SEED_003.shape,
      }).results[0]!;
      expect({ faults: r.counterexample!.faults.length, minimal: r.minimal }, `seed ${seed}`).toEqual({ faults: 2, minimal: true });
    }
  });
});

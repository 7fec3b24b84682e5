// Exploration on several cores must give exactly the report one core gives: jobs run whole on a
// worker each and are merged in job order.
import { describe, expect, it } from 'vitest';
import { ALPHABET_000, ALPHABET_003_WITH_502, DOES_NOT_APPLY_000, VULNERABLE_000, VULNERABLE_003 } from '../../../sim/core/cells.ts';
import { exploreCombination, sequentialWorkloads } from '../../../sim/search/exhaustive/exhaustive.ts';
import { closeWorkers, exploreInParallel, exploreMatrix, idleWorkers } from '../../../sim/search/exhaustive/pool.ts';

describe('exploration on worker threads', () => {
  it('gives the single-core result, for one combination and for a matrix', async () => {
    const options = { faults: ALPHABET_000, depth: 3, workloads: sequentialWorkloads(2, 'any') };
    const single = exploreCombination(VULNERABLE_000, options);
    expect(await exploreInParallel(VULNERABLE_000, options, { workers: 2 })).toEqual(single);
    const items = [
      { combination: DOES_NOT_APPLY_000[0]!.combination, options },
      { combination: VULNERABLE_003, options: { faults: ALPHABET_003_WITH_502, depth: 3, workloads: sequentialWorkloads(2, 'always') } },
    ];
    const matrix = await exploreMatrix(items, { workers: 2 });
    expect(matrix).toEqual(items.map(({ combination, options: o }) => exploreCombination(combination, o)));
    expect(matrix[1]!.results.find((r) => r.property === 'no-silent-hang')!.shortest).toEqual({
      faults: [{ fault: 'strip-header:transfer-encoding', at: 0 }],
      workload: [{ method: 'tools/call', progress: true, overlap: false }],
      why: "call 0 ended only by the client's deadline at t=60040 ms though the server had finished it (answer delivered)",
    });
  });

  it('keeps its threads between runs of one process, and gives the same result on them', async () => {
    await closeWorkers();
    const options = { faults: ALPHABET_000, depth: 1, workloads: sequentialWorkloads(2, 'any') };
    const first = await exploreInParallel(VULNERABLE_000, options, { workers: 2 });
    expect(idleWorkers()).toBe(2);
    expect(await exploreInParallel(VULNERABLE_000, options, { workers: 2 })).toEqual(first);
    expect(idleWorkers()).toBe(2); // reused, not started again
    expect(first).toEqual(exploreCombination(VULNERABLE_000, options));
    await closeWorkers();
    expect(idleWorkers()).toBe(0);
  });
});

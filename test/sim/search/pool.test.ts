// The one worker pool (search/pool/): exploration on several cores gives exactly the report one core
// gives (jobs run whole on a thread each, merged in job order); its threads are kept between runs; the
// same threads run a comparison's cells and the finder's searches, each under the config rebuilt from
// its portable form, with the result this thread computes; and a cell stops between its runs once the
// stop flag in shared memory is set.
import { afterAll, describe, expect, it } from 'vitest';
import { ALPHABET_000, ALPHABET_003_WITH_502, DOES_NOT_APPLY_000, VULNERABLE_000, VULNERABLE_003 } from '../../../sim/core/cells.ts';
import { checkCell, singleCell, type RunnerResult } from '../../../sim/compare/compare.ts';
import { runSearch } from '../../../sim/compare/mitigation-runs.ts';
import { COMPARE_JOBS } from '../../../sim/compare/thread-jobs.ts';
import { portableConfig, runConfig } from '../../../sim/plugins/run-config.ts';
import { exploreCombination, sequentialWorkloads } from '../../../sim/search/exhaustive/exhaustive.ts';
import { closeWorkers, exploreInParallel, exploreMatrix, idleWorkers } from '../../../sim/search/exhaustive/parallel.ts';
import { JobStopped, returnThreads, takeThreads } from '../../../sim/search/pool/pool.ts';

const config = runConfig({ seed: 1, runs: 40 });

afterAll(() => closeWorkers());

describe('exploration on worker threads', () => {
  it('gives the single-core result, for one combination and for a matrix', async () => {
    const options = { faults: ALPHABET_000, depth: 3, workloads: sequentialWorkloads(2, 'any') };
    const single = exploreCombination(VULNERABLE_000, options, config);
    expect(await exploreInParallel(VULNERABLE_000, options, config, { workers: 2 })).toEqual(single);
    const items = [
      { combination: DOES_NOT_APPLY_000[0]!.combination, options },
      { combination: VULNERABLE_003, options: { faults: ALPHABET_003_WITH_502, depth: 3, workloads: sequentialWorkloads(2, 'always') } },
    ];
    const matrix = await exploreMatrix(items, config, { workers: 2 });
    expect(matrix).toEqual(items.map(({ combination, options: o }) => exploreCombination(combination, o, config)));
    expect(matrix[1]!.results.find((r) => r.property === 'no-silent-hang')!.shortest).toEqual({
      faults: [{ fault: 'strip-header:transfer-encoding', at: 0 }],
      workload: [{ method: 'tools/call', progress: true, overlap: false }],
      why: "call 0 ended only by the client's deadline at t=60040 ms though the server had finished it (answer delivered)",
    });
  });

  it('keeps its threads between runs of one process, and gives the same result on them', async () => {
    await closeWorkers();
    const options = { faults: ALPHABET_000, depth: 1, workloads: sequentialWorkloads(2, 'any') };
    const first = await exploreInParallel(VULNERABLE_000, options, config, { workers: 2 });
    expect(idleWorkers()).toBe(2);
    expect(await exploreInParallel(VULNERABLE_000, options, config, { workers: 2 })).toEqual(first);
    expect(idleWorkers()).toBe(2); // reused, not started again
    expect(first).toEqual(exploreCombination(VULNERABLE_000, options, config));
    await closeWorkers();
    expect(idleWorkers()).toBe(0);
  });
});

describe("a comparison's jobs on the same threads", () => {
  const cell = singleCell(VULNERABLE_000, ALPHABET_000);

  it('checks a cell and runs a search there, with the results of this thread', async () => {
    const [thread] = takeThreads(1);
    const portable = portableConfig(config)!;
    const progress: number[] = [];
    const there = await thread!.run<RunnerResult>(COMPARE_JOBS, { cell }, portable, undefined, (done) => progress.push(done));
    expect(there).toEqual(checkCell(cell, config));
    expect(progress.length).toBeGreaterThan(0);
    const spec = { combination: VULNERABLE_003, faults: ALPHABET_003_WITH_502, shape: {} };
    const searched = await thread!.run(COMPARE_JOBS, { search: spec }, portable);
    expect(searched).toEqual(runSearch(spec.combination, { config, faults: spec.faults, shape: spec.shape }));
    returnThreads([thread!]);
  });

  it('stops a long cell between its runs once the shared flag is set', async () => {
    const [thread] = takeThreads(1);
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const long = portableConfig(runConfig({ runs: 1_000_000 }))!;
    let seen = 0;
    const ran = thread!.run(COMPARE_JOBS, { cell }, long, stop, (done) => {
      seen = done;
      if (done >= 100) Atomics.store(stop, 0, 1);
    });
    await expect(ran).rejects.toBeInstanceOf(JobStopped);
    expect(seen).toBeGreaterThanOrEqual(100);
    expect(seen).toBeLessThan(1000);
    returnThreads([thread!]);
  });
});

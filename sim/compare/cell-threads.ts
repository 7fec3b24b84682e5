// A comparison's cells on pool threads (search/pool/), so that Ctrl-C and --time-limit can stop a long
// cell between its runs: a cell's check is synchronous, and a signal handler on the thread running it
// would wait for the whole cell. Here the main thread only waits; its SIGINT handler sets a flag in
// shared memory that the thread reads every 50 runs. The same check runs on the same inputs under the
// same config (rebuilt there from its portable form), so the result is the one this thread would
// compute (the golden test runs compare this way). Once the cells are done, the threads run the
// mitigation finder's searches too (`helpers`).
import { coverageSharer, type MachineCoverage } from '../core/reach.ts';
import { portableConfig, type RunConfig } from '../plugins/run-config.ts';
import { takeThreads, type PoolThread } from '../search/pool/pool.ts';
import type { CheckResult } from '../search/random/result.ts';
import type { CellRunner, Progress } from './cell-runner.ts';
import type { RemoteSearcher, Searched } from './mitigation-searches.ts';
import { COMPARE_JOBS } from './thread-jobs.ts';

export interface CellThreads {
  /** Runs a cell on the least loaded thread (or here: see IN_THREAD_RUNS). */
  runner: CellRunner;
  /** Each thread as a runner of the mitigation finder's searches (only while no cell runs there: a
   *  comparison hands them searches once its cells are done); rejects if the thread is not running. */
  helpers: RemoteSearcher[];
  /** Ask the running cells to stop at their next progress point. */
  stop(): void;
  /** End the threads: their heaps go (a comparison's threads are not kept for another run). */
  close(): Promise<void>;
}

/** A cell of at most this many runs runs in this thread while the thread is still starting (it takes
 *  a second or two to load): it ends long before a signal would matter, and the first cells of a
 *  short comparison are not held up. A longer cell waits for the thread. */
export const IN_THREAD_RUNS = 1000;

/** Cells a thread is given at once: the one it runs and the next, waiting in its port's queue, so that
 *  it starts the next as soon as it ends one rather than when this thread gets round to answering. */
export const CELLS_PER_THREAD = 2;

/** One pool thread as a cell runner: it loads the config's policy modules first; meanwhile (or if it
 *  cannot) cells run `here`. */
function cellThread(
  thread: PoolThread,
  config: RunConfig,
  stop: Int32Array,
  onRuns: Progress,
  here: CellRunner,
  shared: (coverage: MachineCoverage[]) => MachineCoverage[],
) {
  const portable = portableConfig(config);
  let ready = false;
  // The thread could not load the modules (or the config cannot cross): every cell runs in this thread.
  let failed = portable === null;
  const started = portable
    ? thread.warm(portable).then((problem) => {
        ready = problem === null;
        failed = !ready;
      })
    : Promise.resolve();
  const runner: CellRunner = async (cell, c, onProgress) => {
    const crossing = c === config ? portable : portableConfig(c);
    if (failed || crossing === null || (!ready && c.runs <= IN_THREAD_RUNS)) return here(cell, c, onProgress);
    await started;
    // Its progress goes to `onRuns`, whose stop reaches the thread through the shared flag.
    if (failed) return here(cell, c, onProgress);
    const result = await thread.run<CheckResult>(COMPARE_JOBS, { cell }, crossing, stop, onRuns);
    return { ...result, coverage: shared(result.coverage) };
  };
  const search: RemoteSearcher = (spec, c, sampled) => {
    const p = portableConfig(c);
    if (!ready || failed || p === null) return Promise.reject(new Error('the cell thread is not running'));
    return thread.run<Searched>(COMPARE_JOBS, { search: spec, ...(sampled ? { sampled } : {}) }, p);
  };
  return { runner, search };
}

/** `count` threads running cells under `config`: a cell goes to the least loaded thread (the caller
 *  runs at most `count × CELLS_PER_THREAD` cells at once: runComparison's `concurrency`), each is a
 *  search helper, and stop and close reach them all. */
export function cellThreads(count: number, config: RunConfig, onRuns: Progress, here: CellRunner): CellThreads {
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const threads = takeThreads(Math.max(1, count));
  const shared = coverageSharer();
  const cells = threads.map((t) => cellThread(t, config, stop, onRuns, here, shared));
  const load = threads.map(() => 0);
  const runner: CellRunner = async (cell, c, onProgress) => {
    const i = load.indexOf(Math.min(...load));
    if (load[i]! >= CELLS_PER_THREAD) throw new Error('internal: more cells at once than the cell threads take');
    load[i]!++;
    try {
      return await cells[i]!.runner(cell, c, onProgress);
    } finally {
      load[i]!--;
    }
  };
  return {
    runner,
    helpers: cells.map((t) => t.search),
    stop: () => Atomics.store(stop, 0, 1),
    close: async () => {
      await Promise.all(threads.map((t) => t.terminate()));
    },
  };
}

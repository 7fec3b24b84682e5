// `compare`'s cells on a worker thread, so that Ctrl-C and --time-limit can stop a long cell between
// its runs: a cell's check is synchronous, and a signal handler on the thread running it would wait
// for the whole cell. Here the main thread only waits; its SIGINT handler sets a flag in shared
// memory that the worker reads every 50 runs. The same check runs on the same inputs, so the result
// is the one this thread would compute (the golden test runs compare this way).
import { Worker } from 'node:worker_threads';
import { CellStopped, type CellRunner, type RunSettings } from '../compare/compare.ts';
import { PolicyError } from '../../models/extensions.ts';
import type { CheckResult } from '../search/random/check.ts';
import type { RemoteSearcher, Searched } from '../compare/mitigation-searches.ts';

export interface CellThread {
  runner: CellRunner;
  /** Run one of the mitigation finder's searches on the thread (only while no cell runs there: a
   *  comparison hands it searches once its cells are done); rejects if the thread is not running. */
  search: RemoteSearcher;
  /** Ask the running cell to stop at its next progress point. */
  stop(): void;
  close(): Promise<void>;
}

/** A cell of at most this many runs runs in this thread while the worker is still starting (it takes
 *  a second or two to load): it ends long before a signal would matter, and the first cells of a
 *  short comparison are not held up. A longer cell waits for the worker. */
export const IN_THREAD_RUNS = 1000;

/** World options as they cross to the worker: its own registry supplies the extensions. */
function withoutExtensions(world: NonNullable<RunSettings['world']>): NonNullable<RunSettings['world']> {
  const { extensions: _e, ...plain } = world;
  return plain;
}

export function cellThread(policies: readonly string[], onRuns: (done: number, total: number) => void, here: CellRunner): CellThread {
  const stop = new Int32Array(new SharedArrayBuffer(4));
  // Run from source, the entry registers tsx; compiled (dist/), the worker is plain JavaScript.
  const entry = new URL(new URL(import.meta.url).pathname.endsWith('.ts') ? './cell-worker.mjs' : './cell-worker.js', import.meta.url);
  const worker = new Worker(entry, { workerData: { policies: [...policies], stop } });
  let ready = false;
  // The worker could not load the modules (or died starting): every cell runs in this thread.
  let failed = false;
  const started = new Promise<void>((resolve) => {
    const onReady = (m: { ready?: true; loadFailed?: string }) => {
      if (!m.ready && m.loadFailed === undefined) return;
      ready = m.ready === true;
      failed = !ready;
      worker.off('message', onReady);
      resolve();
    };
    worker.on('message', onReady);
    worker.once('error', () => {
      failed = true;
      resolve();
    });
  });
  const runner: CellRunner = async (cell, settings) => {
    if (failed || (!ready && settings.runs <= IN_THREAD_RUNS)) return here(cell, settings);
    // The settings' properties and extensions come from this command's registry, loaded from
    // `policies`: the worker has loaded the same modules into its own.
    await started;
    return failed ? here(cell, settings) : inWorker(cell, settings);
  };
  /** Post `message` and wait for the replies to it (the worker tags each with the message's id, as a
   *  second cell may wait in its queue behind the first): `settle` returns false to go on waiting
   *  (progress), true once it has resolved or rejected. */
  let asked = 0;
  const ask = <T, M>(message: object, settle: (m: M, resolve: (t: T) => void, reject: (e: unknown) => void) => boolean) =>
    new Promise<T>((resolve, reject) => {
      const id = asked++;
      const onMessage = (m: M & { id?: number }) => {
        if (m.id !== id || !settle(m, resolve, reject)) return;
        worker.off('message', onMessage);
        worker.off('error', onError);
      };
      const onError = (e: Error) => {
        worker.off('message', onMessage);
        reject(e);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ ...message, id });
    });
  const settingsOf = (settings: Parameters<CellRunner>[1]) => ({
    seed: settings.seed,
    runs: settings.runs,
    properties: settings.properties.map((p) => p.name),
    world: withoutExtensions(settings.world ?? {}),
  });
  type CellReply = {
    progress?: [number, number];
    result?: CheckResult;
    stopped?: true;
    policyError?: { policy: string; message: string; reason: PolicyError['reason']; history?: unknown };
    error?: string;
  };
  const inWorker: CellRunner = (cell, settings) =>
    ask<CheckResult, CellReply>({ cell, ...settingsOf(settings) }, (m, resolve, reject) => {
      if (m.progress) {
        onRuns(m.progress[0], m.progress[1]);
        return false;
      }
      if (m.result) resolve(m.result);
      else if (m.stopped) reject(new CellStopped());
      else if (m.policyError) {
        const e = new PolicyError(m.policyError.policy, m.policyError.message, m.policyError.reason);
        e.history = m.policyError.history;
        reject(e);
      } else reject(new Error(m.error ?? 'the cell thread failed'));
      return true;
    });
  const search: RemoteSearcher = (spec, settings, sampled) => {
    if (!ready || failed) return Promise.reject(new Error('the cell thread is not running'));
    const message = { search: spec, ...(sampled ? { sampled } : {}), ...settingsOf(settings) };
    return ask<Searched, { searched?: Searched; error?: string }>(message, (m, resolve, reject) => {
      if (!m.searched && m.error === undefined) return false;
      if (m.searched) resolve(m.searched);
      else reject(new Error(m.error));
      return true;
    });
  };
  return {
    runner,
    search,
    stop: () => Atomics.store(stop, 0, 1),
    close: async () => {
      await worker.terminate();
    },
  };
}

/** Cells a thread is given at once: the one it runs and the next, waiting in its port's queue, so that
 *  it starts the next as soon as it ends one rather than when this thread gets round to answering. */
export const CELLS_PER_THREAD = 2;

/** `count` cell threads as one: a cell goes to the least loaded thread (the caller runs at most
 *  `count × CELLS_PER_THREAD` cells at once: runComparison's `concurrency`), each is a search helper,
 *  and stop and close reach them all. */
export function cellThreads(
  count: number,
  policies: readonly string[],
  onRuns: (done: number, total: number) => void,
  here: CellRunner,
): CellThread & { helpers: RemoteSearcher[] } {
  const threads = Array.from({ length: Math.max(1, count) }, () => cellThread(policies, onRuns, here));
  const load = threads.map(() => 0);
  const runner: CellRunner = async (cell, settings) => {
    const i = load.indexOf(Math.min(...load));
    if (load[i]! >= CELLS_PER_THREAD) throw new Error('internal: more cells at once than the cell threads take');
    load[i]!++;
    try {
      return await threads[i]!.runner(cell, settings);
    } finally {
      load[i]!--;
    }
  };
  return {
    runner,
    search: threads[0]!.search,
    helpers: threads.map((t) => t.search),
    stop: () => {
      for (const t of threads) t.stop();
    },
    close: async () => {
      await Promise.all(threads.map((t) => t.close()));
    },
  };
}

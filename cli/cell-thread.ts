// `compare`'s cells on a worker thread, so that Ctrl-C and --time-limit can stop a long cell between
// its runs: a cell's check is synchronous, and a signal handler on the thread running it would wait
// for the whole cell. Here the main thread only waits; its SIGINT handler sets a flag in shared
// memory that the worker reads every 50 runs. The same check runs on the same inputs, so the result
// is the one this thread would compute (the golden test runs compare this way).
import { Worker } from 'node:worker_threads';
import { CellStopped, type CellRunner } from '../compare/compare.ts';
import { PolicyError } from '../models/registry.ts';
import type { CheckResult } from '../search/random/check.ts';

export interface CellThread {
  runner: CellRunner;
  /** Ask the running cell to stop at its next progress point. */
  stop(): void;
  close(): Promise<void>;
}

export function cellThread(policies: readonly string[], onRuns: (done: number, total: number) => void): CellThread {
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL('./cell-worker.mjs', import.meta.url), { workerData: { policies: [...policies], stop } });
  worker.unref();
  const runner: CellRunner = (cell, settings) =>
    new Promise<CheckResult>((resolve, reject) => {
      const onMessage = (m: { progress?: [number, number]; result?: CheckResult; stopped?: true; policyError?: { policy: string; message: string; reason: PolicyError['reason']; history?: unknown }; error?: string }) => {
        if (m.progress) return onRuns(m.progress[0], m.progress[1]);
        worker.off('message', onMessage);
        worker.off('error', onError);
        if (m.result) resolve(m.result);
        else if (m.stopped) reject(new CellStopped());
        else if (m.policyError) {
          const e = new PolicyError(m.policyError.policy, m.policyError.message, m.policyError.reason);
          e.history = m.policyError.history;
          reject(e);
        } else reject(new Error(m.error ?? 'the cell thread failed'));
      };
      const onError = (e: Error) => {
        worker.off('message', onMessage);
        reject(e);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.ref();
      worker.postMessage({ cell, seed: settings.seed, runs: settings.runs, properties: settings.properties.map((p) => p.name) });
    }).finally(() => worker.unref());
  return {
    runner,
    stop: () => Atomics.store(stop, 0, 1),
    close: async () => {
      await worker.terminate();
    },
  };
}

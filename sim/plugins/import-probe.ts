// A policy module is code with the user's privileges, run in this process; before it is imported
// here, it is imported once in a worker thread under a time limit, so that a module that loops at
// import time, whose top-level await never settles, or that ends the process while loading is one
// line of bad input instead of a hung CLI or a silent exit 13. The limit is wall-clock time (the
// CLI's, not the model's); it bounds loading only and is not a sandbox.
import { Worker } from 'node:worker_threads';

/** How long loading a policy module may take (MCP_FAULTSIM_IMPORT_TIME_LIMIT_MS overrides it). */
export const IMPORT_TIME_LIMIT_MS = 20_000;

function limit(): number {
  const v = Number(process.env.MCP_FAULTSIM_IMPORT_TIME_LIMIT_MS);
  return Number.isInteger(v) && v > 0 ? v : IMPORT_TIME_LIMIT_MS;
}

/** Null when the module loads; else why it cannot be used. */
export function probeImport(url: string, limitMs = limit()): Promise<string | null> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./import-probe.mjs', import.meta.url), { workerData: { url }, stdout: true, stderr: true });
    let settled = false;
    const finish = (why: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(why);
    };
    const timer = setTimeout(() => finish(`did not finish loading within ${limitMs / 1000} s (a loop or a wait at import time?)`), limitMs);
    worker.on('message', (m: { loaded?: boolean; exit?: number; failed?: string }) => {
      if (m.exit !== undefined) finish(`calls process.exit(${m.exit}) while loading`);
      else if (m.failed !== undefined)
        finish(null); // the import in this thread reports the error itself
      else if (m.loaded) finish(null);
    });
    worker.on('error', () => finish(null));
    worker.on('exit', (code) =>
      finish(code === 13 || code === 0 ? 'never settles its top-level await' : `ended its thread with exit code ${code} while loading`),
    );
  });
}

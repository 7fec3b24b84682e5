// The worker pool: one kind of thread (pool/thread.ts) for every job the project runs off the main
// thread — exploration jobs, compare's cells, the mitigation finder's searches — each carrying its
// run's config in portable form. Threads a run gives back wait idle (unref'd) for the next run of
// the process, which then does not pay for starting and loading them again; `closeWorkers` stops
// them. `runInOrder` runs many jobs over some threads with each result at its job's index, so the
// result is the same for any number of threads.
import { availableParallelism } from 'node:os';
import type { PortableConfig } from '../../plugins/run-config.ts';
import type { JobKind } from './job.ts';
import { PoolThread } from './thread.ts';

export { JobStopped, type JobContext, type JobKind } from './job.ts';
export { PoolThread } from './thread.ts';

export function defaultWorkers(): number {
  return availableParallelism();
}

const idle: PoolThread[] = [];

/** `n` threads: idle ones first, then new ones. */
export function takeThreads(n: number): PoolThread[] {
  const out = idle.splice(0, n).filter((t) => t.alive);
  while (out.length < n) out.push(new PoolThread());
  for (const t of out) t.ref();
  return out;
}

/** Threads whose jobs are all done, back to wait for the next run (a thread that is gone is dropped). */
export function returnThreads(threads: readonly PoolThread[]): void {
  for (const t of threads) {
    if (!t.alive) continue;
    t.unref();
    idle.push(t);
  }
}

/** Threads waiting for the next run (tests). */
export function idleWorkers(): number {
  return idle.filter((t) => t.alive).length;
}

/** Stop the idle threads (they are unref'd, so a process exits without this). */
export async function closeWorkers(): Promise<void> {
  await Promise.all(idle.splice(0).map((t) => t.terminate()));
}

/**
 * Every job of `kind` on `threads`, a thread taking the next one (in `order`) as it ends one; each
 * result at its job's index, whatever the order they finish in. The first failure rejects, and no
 * thread takes another job after it.
 */
export async function runInOrder<D, R>(
  threads: readonly PoolThread[],
  kind: JobKind,
  jobs: readonly D[],
  order: readonly number[],
  config: PortableConfig,
  stop: Int32Array | undefined,
  onDone?: (done: number, total: number) => void,
): Promise<R[]> {
  const results: R[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  let failed = false;
  const feed = async (t: PoolThread) => {
    while (!failed && next < order.length) {
      const i = order[next++]!;
      try {
        results[i] = await t.run<R>(kind, jobs[i], config, stop);
      } catch (e) {
        failed = true;
        throw e;
      }
      onDone?.(++done, jobs.length);
    }
  };
  await Promise.all(threads.map(feed));
  return results;
}

// Exploration on every core: exploration jobs (one per combination and workload) run on worker
// threads, each job whole on one thread, and their results come back in job order, so a run on
// many cores merges into exactly the report a single-core run gives. The threads are kept, idle,
// between runs of one process (see `idle`). Workers load the project's
// TypeScript through tsx's loader (search/exhaustive/worker.mjs), like bin/mcp-faultsim.js does;
// compiled (dist/), the worker is worker.js and needs no loader.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { PolicyError, type ModelExtensions } from '../../../models/extensions.ts';
import { portableProperty } from '../../plugins/loaded.ts';
import { exploreJob, type ExploreJob, type JobResult } from './explore.ts';
import { cellOptions, jobsFor, mergeJobs, type Exploration, type ExhaustiveOptions } from './exhaustive.ts';
import type { Cell } from '../../core/cells.ts';
import type { Combination } from '../../../models/policies.ts';

/** An exploration job as it crosses to a worker: no functions. Properties go by name and the world's
 *  extensions by the paths of the policy modules they came from (the worker loads them into a
 *  registry of its own); a stop flag in shared memory instead of a callback. */
export type JobSpec = Omit<ExploreJob, 'properties' | 'shouldStop' | 'world'> & {
  world?: Omit<NonNullable<ExploreJob['world']>, 'extensions'>;
  modules: readonly string[];
  properties?: string[];
  stop?: Int32Array;
};

export interface PoolOptions {
  /** Worker threads (default: every core). 1 runs the jobs in this thread. */
  workers?: number;
  /** Jobs stop, incomplete, once `stop[0]` is non-zero (an Int32Array over a SharedArrayBuffer, set
   *  by the caller, e.g. from a timer: the benchmark's time budget; no clock is read here). */
  stop?: Int32Array;
  /** Called as jobs finish: for a progress bar. */
  onJob?: (done: number, total: number) => void;
  /** Called once with the number of worker threads the jobs run on (0: in this thread). */
  onThreads?: (threads: number) => void;
}

export function defaultWorkers(): number {
  return availableParallelism();
}

function isEmpty(ext: ModelExtensions): boolean {
  return [ext.reinit, ext.reconnect, ext.guards, ext.faults].every((e) => e.names().length === 0);
}

/** A job can go to a worker when the worker can rebuild it: its engine is named, and each property
 *  is built in or registered by one of the policy modules its extensions came from. Only what this
 *  process made by hand (an engine object, a property or registry not loaded from a file) cannot. */
function specOf(job: ExploreJob, stop: Int32Array | undefined): JobSpec | null {
  if (job.shouldStop || (job.world?.engine && typeof job.world.engine !== 'string')) return null;
  const modules = job.world?.extensions?.modules ?? [];
  if (job.world?.extensions && modules.length === 0 && !isEmpty(job.world.extensions)) return null;
  if (job.properties && !job.properties.every((p) => portableProperty(p, modules))) return null;
  const { properties, shouldStop: _s, world, ...rest } = job;
  const { extensions: _e, ...plain } = world ?? {};
  return {
    ...rest,
    ...(world ? { world: plain } : {}),
    modules: [...modules],
    ...(properties ? { properties: properties.map((p) => p.name) } : {}),
    ...(stop ? { stop } : {}),
  };
}

export async function runJobs(jobs: readonly ExploreJob[], options: PoolOptions = {}): Promise<JobResult[]> {
  const workers = Math.min(options.workers ?? defaultWorkers(), jobs.length);
  const specs = jobs.map((j) => specOf(j, options.stop));
  const inThread = workers <= 1 || specs.some((s) => s === null);
  options.onThreads?.(inThread ? 0 : workers);
  if (inThread) {
    // In this thread (one worker, or a job made by hand that cannot cross: see specOf). A flag set by
    // a timer cannot change while a job runs here: stopping in-thread jobs needs `job.shouldStop`.
    return jobs.map((job, i) => {
      const r = exploreJob(job);
      options.onJob?.(i + 1, jobs.length);
      return r;
    });
  }
  const results: JobResult[] = new Array(jobs.length);
  const pool = takeWorkers(workers);
  let failed = false;
  try {
    await new Promise<void>((resolve, reject) => {
      // Longest workloads first, so that no core is left with one big job at the end; results go
      // back to their job's index whatever the order they finish in.
      const order = specs.map((_, i) => i).sort((a, b) => jobs[b]!.workload.length - jobs[a]!.workload.length || a - b);
      let next = 0;
      let done = 0;
      const fail = (e: Error) => {
        failed = true;
        reject(e);
      };
      const feed = (w: Worker) => {
        if (next >= order.length) return;
        const index = order[next++]!;
        w.postMessage({ index, spec: specs[index] });
      };
      for (const w of pool) {
        type Failed = { policy: string; message: string; reason: PolicyError['reason']; history?: unknown };
        w.on('message', (m: { index: number; result?: JobResult; error?: string; policyError?: Failed }) => {
          if (m.policyError) {
            const e = new PolicyError(m.policyError.policy, m.policyError.message, m.policyError.reason);
            e.history = m.policyError.history;
            return fail(e);
          }
          if (m.error !== undefined) return fail(new Error(`exploration worker failed: ${m.error}`));
          results[m.index] = m.result!;
          done++;
          options.onJob?.(done, specs.length);
          if (done === specs.length) resolve();
          else feed(w);
        });
        w.on('error', fail);
        w.on('exit', (code) => {
          if (done < specs.length)
            fail(new Error(`exploration worker exited (code ${code}) with ${specs.length - done} job(s) unfinished`));
        });
        feed(w);
      }
    });
  } finally {
    // Workers that may still be busy (a failure) are stopped; the others wait, idle, for the next run.
    if (failed) await Promise.all(pool.map((w) => w.terminate()));
    else for (const w of pool) returnWorker(w);
  }
  return results;
}

/**
 * Idle workers, kept between runs: a worker loads the project when it starts (≈ 0.5 s of CPU through
 * tsx), which a process that explores several times (the bench, a matrix and then a cell) pays once.
 * Idle workers are unref'd: they never keep the process alive. `closeWorkers` stops them.
 */
const idle: Worker[] = [];

function takeWorkers(n: number): Worker[] {
  const out = idle.splice(0, n);
  const entry = new URL(new URL(import.meta.url).pathname.endsWith('.ts') ? './worker.mjs' : './worker.js', import.meta.url);
  while (out.length < n) {
    const w = new Worker(entry);
    w.once('exit', () => {
      const i = idle.indexOf(w);
      if (i >= 0) idle.splice(i, 1);
    });
    out.push(w);
  }
  for (const w of out) w.ref();
  return out;
}

function returnWorker(w: Worker): void {
  w.removeAllListeners('message');
  w.removeAllListeners('error');
  // The listener of `takeWorkers` that takes an exited worker out of `idle` stays.
  for (const l of w.listeners('exit').slice(1)) w.off('exit', l as () => void);
  w.unref();
  idle.push(w);
}

/** Workers waiting for the next run (tests). */
export function idleWorkers(): number {
  return idle.length;
}

/** Stop the idle workers (they are unref'd, so a process exits without this). */
export async function closeWorkers(): Promise<void> {
  await Promise.all(idle.splice(0).map((w) => w.terminate()));
}

/** `exploreCombination` on every core: the same result, sooner. */
export async function exploreInParallel(
  combination: Combination,
  options: ExhaustiveOptions,
  pool: PoolOptions = {},
): Promise<Exploration> {
  return mergeJobs(combination, options, await runJobs(jobsFor(combination, options), pool));
}

/** Several combinations at once (a matrix), all their jobs in one pool; results in input order. */
export async function exploreMatrix(
  items: readonly { combination: Combination; options: ExhaustiveOptions }[],
  pool: PoolOptions = {},
): Promise<Exploration[]> {
  const perItem = items.map(({ combination, options }) => jobsFor(combination, options));
  const results = await runJobs(perItem.flat(), pool);
  let at = 0;
  return items.map(({ combination, options }, i) => {
    const mine = results.slice(at, at + perItem[i]!.length);
    at += perItem[i]!.length;
    return mergeJobs(combination, options, mine);
  });
}

/**
 * Seed cells explored to `depth`, each under its record's alphabet and on every sequential workload
 * of up to three calls (`cellOptions`), all on one pool: what `compare --depth` shows beside each
 * cell's random verdicts (attach it to the cell's check result with `withExhaustive`, search/certify.ts).
 */
export async function exploreCells(cells: readonly Cell[], depth: number, pool: PoolOptions = {}): Promise<Exploration[]> {
  return exploreMatrix(
    cells.map((cell) => ({ combination: cell.combination, options: cellOptions(cell, depth) })),
    pool,
  );
}

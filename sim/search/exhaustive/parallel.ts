// Exploration on every core: exploration jobs (one per combination and workload) run on the worker
// pool (search/pool/), each job whole on one thread, and their results come back in job order, so a
// run on many cores merges into exactly the report a single-core run gives. The pool's threads are
// kept, idle, between runs of one process.
import type { Cell } from '../../core/cells.ts';
import type { Combination } from '../../../models/policies.ts';
import { portableConfig, type RunConfig } from '../../plugins/run-config.ts';
import { defaultWorkers, returnThreads, runInOrder, takeThreads, type JobContext, type JobKind } from '../pool/pool.ts';
import { exploreJob, type ExploreJob, type JobResult } from './explore.ts';
import { cellOptions, jobsFor, mergeJobs, type Exploration, type ExhaustiveOptions } from './exhaustive.ts';

export { closeWorkers, defaultWorkers, idleWorkers } from '../pool/pool.ts';

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

/** An exploration job as a pool thread runs it (the job kind `EXPLORE`). */
export function exploreOnThread(job: ExploreJob, config: RunConfig, ctx: JobContext): JobResult {
  return exploreJob(job, config, ctx.shouldStop);
}

const EXPLORE: JobKind = { module: import.meta.url, name: 'exploreOnThread' };

/** Every job under `config`, on the pool, results in job order. In this thread with one worker, or
 *  where a thread could not rebuild the config (a registry made from objects in this process): a
 *  flag set by a timer cannot change while a job runs here, so such jobs are not stopped. */
export async function runJobs(jobs: readonly ExploreJob[], config: RunConfig, options: PoolOptions = {}): Promise<JobResult[]> {
  const workers = Math.min(options.workers ?? defaultWorkers(), jobs.length);
  const portable = portableConfig(config);
  if (workers <= 1 || portable === null) {
    options.onThreads?.(0);
    return jobs.map((job, i) => {
      const r = exploreJob(job, config);
      options.onJob?.(i + 1, jobs.length);
      return r;
    });
  }
  options.onThreads?.(workers);
  // Longest workloads first, so that no core is left with one big job at the end.
  const order = jobs.map((_, i) => i).sort((a, b) => jobs[b]!.workload.length - jobs[a]!.workload.length || a - b);
  const threads = takeThreads(workers);
  try {
    const results = await runInOrder<ExploreJob, JobResult>(threads, EXPLORE, jobs, order, portable, options.stop, options.onJob);
    returnThreads(threads);
    return results;
  } catch (e) {
    // Threads that may still be busy are stopped; the next run starts new ones.
    await Promise.all(threads.map((t) => t.terminate()));
    throw e;
  }
}

/** `exploreCombination` on every core: the same result, sooner. */
export async function exploreInParallel(
  combination: Combination,
  options: ExhaustiveOptions,
  config: RunConfig,
  pool: PoolOptions = {},
): Promise<Exploration> {
  return mergeJobs(combination, options, config.properties, await runJobs(jobsFor(combination, options), config, pool));
}

/** Several combinations at once (a matrix), all their jobs in one pool; results in input order. */
export async function exploreMatrix(
  items: readonly { combination: Combination; options: ExhaustiveOptions }[],
  config: RunConfig,
  pool: PoolOptions = {},
): Promise<Exploration[]> {
  const perItem = items.map(({ combination, options }) => jobsFor(combination, options));
  const results = await runJobs(perItem.flat(), config, pool);
  let at = 0;
  return items.map(({ combination, options }, i) => {
    const mine = results.slice(at, at + perItem[i]!.length);
    at += perItem[i]!.length;
    return mergeJobs(combination, options, config.properties, mine);
  });
}

/**
 * Seed cells explored to `depth`, each under its record's alphabet and on every sequential workload
 * of up to three calls (`cellOptions`), all on one pool: what `compare --depth` shows beside each
 * cell's random verdicts (attach it to the cell's check result with `withExhaustive`, search/certify.ts).
 */
export async function exploreCells(
  cells: readonly Cell[],
  depth: number,
  config: RunConfig,
  pool: PoolOptions = {},
): Promise<Exploration[]> {
  return exploreMatrix(
    cells.map((cell) => ({ combination: cell.combination, options: cellOptions(cell, depth) })),
    config,
    pool,
  );
}

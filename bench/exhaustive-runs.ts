// How the exhaustive section runs one exploration (bench/exhaustive.ts): the seed cells' or the whole
// vocabulary's jobs at one depth on the worker pool, within a shared clock, with the time, the CPU
// time of every thread and the peak RSS sampled as it runs; iterative deepening over those; and the
// most a pool can speed up a set of jobs, whatever the load.
import { SEED_CELLS } from '../sim/core/cells.ts';
import { faultVocabulary } from '../models/faults.ts';
import { combination, type Combination } from '../models/policies.ts';
import {
  DEFAULT_EXPLORE_CALLS,
  cellOptions,
  jobsFor,
  mergeJobs,
  sequentialWorkloads,
  type Exploration,
  type ExhaustiveOptions,
} from '../sim/search/exhaustive/exhaustive.ts';
import type { JobResult } from '../sim/search/exhaustive/explore.ts';
import { closeWorkers, runJobs } from '../sim/search/exhaustive/parallel.ts';
import { DEFAULT_CONFIG } from '../sim/plugins/run-config.ts';
import { NO_ADDITIONS } from '../models/additions.ts';
import { note, now, round } from './measure.ts';

export interface DepthRun {
  depth: number;
  seconds: number;
  states: number;
  plans: number;
  complete: boolean;
  /** CPU time of every thread of the process, workers included: the work, whatever the load. */
  cpuSeconds: number;
  /** Distinct states of the largest job (states are merged per job: the fingerprints' n). */
  largestJobStates: number;
  /** The process's resident memory, every thread's, sampled every 100 ms during the run. */
  peakRssMB: number;
  /** Levels every job finished (the depth asked for when complete). */
  depthFinished: number;
}

/**
 * The speed-up a pool of `workers` can give at most on these jobs, whatever the machine's load: the
 * jobs' distinct states as their cost, handed out as the pool does (longest workload first, each to
 * the first free worker), total work over the busiest worker's.
 */
export function balanceBound(jobs: readonly { calls: number; states: number }[], workers: number): number {
  const order = jobs.map((_, i) => i).sort((a, b) => jobs[b]!.calls - jobs[a]!.calls || a - b);
  const load = new Array<number>(workers).fill(0);
  for (const i of order) {
    const w = load.indexOf(Math.min(...load));
    load[w] = load[w]! + jobs[i]!.states;
  }
  const total = load.reduce((a, b) => a + b, 0);
  return total === 0 ? 1 : round(total / Math.max(...load), 2);
}

/** The seed cells' explorations to `depth` (every cell, or those `which` keeps). */
export function seedItems(depth: number, which: (role: string) => boolean = () => true) {
  return SEED_CELLS.filter((cell) => which(cell.role)).map((cell) => ({
    combination: cell.combination,
    options: cellOptions(cell, depth),
  }));
}

export async function runDepth(
  depth: number,
  workers: number,
  stopAt?: number,
  items: readonly { combination: Combination; options: ExhaustiveOptions }[] = seedItems(depth),
): Promise<{ run: DepthRun; explorations: Exploration[]; jobs: JobResult[] }> {
  const t = now();
  const cpu = process.cpuUsage(); // every thread of this process, the workers' included
  // The time budget: a timer raises a flag the workers read (the simulator reads no clock).
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const timer = stopAt === undefined ? undefined : setTimeout(() => Atomics.store(stop, 0, 1), Math.max(0, stopAt - Date.now()));
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 100);
  const perCell = items.map(({ combination, options }) => jobsFor(combination, options));
  const jobs = await runJobs(perCell.flat(), DEFAULT_CONFIG, { workers, stop }).finally(() => {
    clearTimeout(timer);
    clearInterval(sampler);
  });
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  let at = 0;
  const explorations = items.map(({ combination, options }, i) =>
    mergeJobs(combination, options, DEFAULT_CONFIG.properties, jobs.slice(at, (at += perCell[i]!.length))),
  );
  const seconds = (now() - t) / 1000;
  const used = process.cpuUsage(cpu);
  const run = {
    cpuSeconds: round((used.user + used.system) / 1e6, 2),
    depth,
    seconds: round(seconds, 2),
    states: explorations.reduce((s, e) => s + e.states, 0),
    plans: explorations.reduce((s, e) => s + e.plans, 0),
    complete: explorations.every((e) => e.complete),
    largestJobStates: Math.max(...jobs.map((j) => j.states)),
    peakRssMB: Math.round(peakRss / 2 ** 20),
    depthFinished: Math.min(...jobs.map((j) => (j.complete ? depth : j.depth))),
  };
  return { run, explorations, jobs };
}

/** Before a section whose peak RSS is reported: the kept pool threads go (with the heaps the last
 *  section grew in them) and this thread collects, so that the peak is the section's own, as a
 *  process that runs only that search would see it. */
export async function freshThreads(): Promise<void> {
  await closeWorkers();
  (globalThis as { gc?: () => void }).gc?.();
}

/** Iterative deepening from depth 1 within the budget, each depth from scratch; the last run is cut off. */
export async function deepen(
  workers: number,
  budgetSeconds: number,
  items: (depth: number) => readonly { combination: Combination; options: ExhaustiveOptions }[],
  label: string,
  maxDepth = Infinity,
): Promise<{ byDepth: DepthRun[]; reached: number }> {
  const start = Date.now();
  const byDepth: DepthRun[] = [];
  let reached = 0;
  for (let depth = 1; depth <= maxDepth && Date.now() - start < budgetSeconds * 1000; depth++) {
    note(`exhaustive: ${label}, depth ${depth}`);
    const { run } = await runDepth(depth, workers, start + budgetSeconds * 1000, items(depth));
    byDepth.push(run);
    if (!run.complete) break;
    reached = depth;
  }
  return { byDepth, reached };
}

/** The whole vocabulary on the default combination, as `mcp-faultsim explore` runs it. */
export function vocabularyItems(depth: number) {
  const options = { faults: faultVocabulary(NO_ADDITIONS), depth, workloads: sequentialWorkloads(DEFAULT_EXPLORE_CALLS, 'any') };
  return [{ combination: combination({}, NO_ADDITIONS), options }];
}

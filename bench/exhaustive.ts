// Exhaustive exploration of the default matrix (every seed cell under its record's alphabet,
// every sequential workload of up to three calls): the depth reached within 60 s on every core,
// by iterative deepening (each depth from scratch, the clock shared), states per second, the
// speed-up of the worker pool over one core, and every safe cell proved to depth 4.
import { SEED_CELLS } from '../core/cells.ts';
import { cellOptions, jobsFor, mergeJobs, type Exploration } from '../search/exhaustive/exhaustive.ts';
import type { JobResult } from '../search/exhaustive/explore.ts';
import { defaultWorkers, runJobs } from '../search/exhaustive/pool.ts';
import { median, note, now, round } from './measure.ts';

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
}

export interface ExhaustiveFigures {
  cells: number;
  workers: number;
  budgetSeconds: number;
  depthIn60s: number;
  statesPerSecond: number;
  byDepth: DepthRun[];
  /** The depth-4 matrix on one worker and on all of them, medians of rounds. */
  depth4: {
    oneWorkerSeconds: number;
    allWorkersSeconds: number;
    speedup: number;
    rounds: number;
    /** CPU seconds of the process (all threads) for the same runs: what the pool adds in work. */
    oneWorkerCpuSeconds: number;
    allWorkersCpuSeconds: number;
    /** The most the split into jobs allows on `workers` (bench/exhaustive.ts `balanceBound`). */
    balanceBound: number;
  };
  /** Birthday bound on a fingerprint collision in the largest job run (n²/2^65, 64-bit fingerprints). */
  fingerprintCollisionBound: number;
  /** The records' "does not apply" cells, where the record's property is to hold: how many are
   *  proved to depth 4; every cell whose property holds; the others, with their shortest plans. */
  safeCells: {
    doesNotApplyProved: number;
    doesNotApply: number;
    holding: number;
    seconds: number;
    violated: { cell: string; faults: number }[];
  };
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

async function runDepth(
  depth: number,
  workers: number,
  stopAt?: number,
): Promise<{ run: DepthRun; explorations: Exploration[]; jobs: JobResult[] }> {
  const t = now();
  const cpu = process.cpuUsage(); // every thread of this process, the workers' included
  // The time budget: a timer raises a flag the workers read (the simulator reads no clock).
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const timer = stopAt === undefined ? undefined : setTimeout(() => Atomics.store(stop, 0, 1), Math.max(0, stopAt - Date.now()));
  const items = SEED_CELLS.map((cell) => ({ combination: cell.combination, options: cellOptions(cell, depth) }));
  const perCell = items.map(({ combination, options }) => jobsFor(combination, options));
  const jobs = await runJobs(perCell.flat(), { workers, stop }).finally(() => clearTimeout(timer));
  let at = 0;
  const explorations = items.map(({ combination, options }, i) =>
    mergeJobs(combination, options, jobs.slice(at, (at += perCell[i]!.length))),
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
  };
  return { run, explorations, jobs };
}

export async function measureExhaustive(quick: boolean): Promise<ExhaustiveFigures> {
  // At least two workers: the budget's flag is read by worker threads, never by this one.
  const workers = Math.max(2, defaultWorkers());
  const budgetSeconds = quick ? 15 : 60;
  const start = Date.now();
  const byDepth: DepthRun[] = [];
  let depthIn60s = 0;
  let statesPerSecond = 0;
  for (let depth = 1; Date.now() - start < budgetSeconds * 1000; depth++) {
    note(`exhaustive: depth ${depth}`);
    const { run } = await runDepth(depth, workers, start + budgetSeconds * 1000);
    byDepth.push(run);
    if (!run.complete) break;
    depthIn60s = depth;
    statesPerSecond = round(run.states / run.seconds);
  }

  const rounds = quick ? 1 : 3;
  const one: number[] = [];
  const all: number[] = [];
  const oneCpu: number[] = [];
  const allCpu: number[] = [];
  let depth4: Exploration[] = [];
  let depth4Jobs: JobResult[] = [];
  for (let r = 0; r < rounds; r++) {
    note(`exhaustive: depth 4, round ${r + 1}/${rounds}`);
    const o = await runDepth(4, 1);
    one.push(o.run.seconds);
    oneCpu.push(o.run.cpuSeconds);
    const d = await runDepth(4, workers);
    all.push(d.run.seconds);
    allCpu.push(d.run.cpuSeconds);
    depth4 = d.explorations;
    depth4Jobs = d.jobs;
  }
  const safe = SEED_CELLS.map((cell, i) => ({ cell, result: depth4[i]!.results.find((x) => x.property === cell.property)! }));
  return {
    cells: SEED_CELLS.length,
    workers,
    budgetSeconds,
    depthIn60s,
    statesPerSecond,
    byDepth,
    depth4: {
      oneWorkerSeconds: median(one),
      allWorkersSeconds: median(all),
      speedup: round(median(one) / median(all), 2),
      rounds,
      oneWorkerCpuSeconds: median(oneCpu),
      allWorkersCpuSeconds: median(allCpu),
      balanceBound: balanceBound(
        depth4Jobs.map((j) => ({ calls: j.workload.length, states: j.states })),
        workers,
      ),
    },
    fingerprintCollisionBound: Number(
      (Math.max(0, ...byDepth.map((d) => d.largestJobStates), ...depth4Jobs.map((j) => j.states)) ** 2 / 2 ** 65).toPrecision(2),
    ),
    safeCells: {
      doesNotApplyProved: safe.filter((s) => s.cell.role === 'does-not-apply' && s.result.verdict !== 'violated').length,
      doesNotApply: safe.filter((s) => s.cell.role === 'does-not-apply').length,
      holding: safe.filter((s) => s.result.verdict !== 'violated').length,
      seconds: median(all),
      violated: safe
        .filter((s) => s.result.verdict === 'violated')
        .map((s) => ({ cell: `[${s.cell.seed}] ${s.cell.name}`, faults: s.result.shortest!.faults.length })),
    },
  };
}

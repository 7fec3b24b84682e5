// Exhaustive exploration of the default matrix (every seed cell under its record's alphabet,
// every sequential workload of up to three calls): the depth reached within 60 s on every core,
// by iterative deepening (each depth from scratch, the clock shared), states per second, the
// speed-up of the worker pool over one core, and every safe cell proved to depth 4.
import { SEED_CELLS } from '../core/cells.ts';
import type { Exploration } from '../search/exhaustive/exhaustive.ts';
import { defaultWorkers, exploreCells } from '../search/exhaustive/pool.ts';
import { median, note, now, round } from './measure.ts';

export interface DepthRun {
  depth: number;
  seconds: number;
  states: number;
  plans: number;
  complete: boolean;
}

export interface ExhaustiveFigures {
  cells: number;
  workers: number;
  budgetSeconds: number;
  depthIn60s: number;
  statesPerSecond: number;
  byDepth: DepthRun[];
  /** The depth-4 matrix on one worker and on all of them, medians of rounds. */
  depth4: { oneWorkerSeconds: number; allWorkersSeconds: number; speedup: number; rounds: number };
  /** The records' "does not apply" cells, where the record's property is to hold: how many are
   *  proved to depth 4; every cell whose property holds; the others, with their shortest plans. */
  safeCells: { doesNotApplyProved: number; doesNotApply: number; holding: number; seconds: number; violated: { cell: string; faults: number }[] };
}

async function runDepth(depth: number, workers: number, stopAt?: number): Promise<{ run: DepthRun; explorations: Exploration[] }> {
  const t = now();
  // The time budget: a timer raises a flag the workers read (the simulator reads no clock).
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const timer = stopAt === undefined ? undefined : setTimeout(() => Atomics.store(stop, 0, 1), Math.max(0, stopAt - Date.now()));
  const explorations = await exploreCells(SEED_CELLS, depth, { workers, stop }).finally(() => clearTimeout(timer));
  const seconds = (now() - t) / 1000;
  const run = {
    depth,
    seconds: round(seconds, 2),
    states: explorations.reduce((s, e) => s + e.states, 0),
    plans: explorations.reduce((s, e) => s + e.plans, 0),
    complete: explorations.every((e) => e.complete),
  };
  return { run, explorations };
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
  let depth4: Exploration[] = [];
  for (let r = 0; r < rounds; r++) {
    note(`exhaustive: depth 4, round ${r + 1}/${rounds}`);
    one.push((await runDepth(4, 1)).run.seconds);
    const d = await runDepth(4, workers);
    all.push(d.run.seconds);
    depth4 = d.explorations;
  }
  const safe = SEED_CELLS.map((cell, i) => ({ cell, result: depth4[i]!.results.find((x) => x.property === cell.property)! }));
  return {
    cells: SEED_CELLS.length,
    workers,
    budgetSeconds,
    depthIn60s,
    statesPerSecond,
    byDepth,
    depth4: { oneWorkerSeconds: median(one), allWorkersSeconds: median(all), speedup: round(median(one) / median(all), 2), rounds },
    safeCells: {
      doesNotApplyProved: safe.filter((s) => s.cell.role === 'does-not-apply' && s.result.verdict !== 'violated').length,
      doesNotApply: safe.filter((s) => s.cell.role === 'does-not-apply').length,
      holding: safe.filter((s) => s.result.verdict !== 'violated').length,
      seconds: median(all),
      violated: safe.filter((s) => s.result.verdict === 'violated').map((s) => ({ cell: `[${s.cell.seed}] ${s.cell.name}`, faults: s.result.shortest!.faults.length })),
    },
  };
}

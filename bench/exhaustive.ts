// Exhaustive exploration of the default matrix (every seed cell under its record's alphabet,
// every sequential workload of up to three calls): the depth reached within 60 s on every core,
// by iterative deepening (each depth from scratch, the clock shared), states per second, the
// speed-up of the worker pool over one core, and every safe cell proved to depth 4. Then the
// two deeper searches issue 11 asks for, each stopped at its own 60 s: the whole vocabulary to
// depth 5 (what `mcp-faultsim explore --depth 5` runs) with its peak memory, and the "does not
// apply" cells to depth 6. Each part whose memory is reported can run in a process of its own
// (bench/apart.ts); how one exploration is run and measured is bench/exhaustive-runs.ts.
import { SEED_CELLS } from '../sim/core/cells.ts';
import { faultVocabulary } from '../models/faults.ts';
import { DEFAULT_EXPLORE_CALLS, sequentialWorkloads, type Exploration } from '../sim/search/exhaustive/exhaustive.ts';
import type { JobResult } from '../sim/search/exhaustive/explore.ts';
import { closeWorkers, defaultWorkers } from '../sim/search/exhaustive/parallel.ts';
import { NO_ADDITIONS } from '../models/additions.ts';
import { balanceBound, deepen, freshThreads, runDepth, seedItems, vocabularyItems, type DepthRun } from './exhaustive-runs.ts';

export type { DepthRun };
import { median, note, round } from './measure.ts';

/** `mcp-faultsim explore --depth 5`'s search (every fault, sequential workloads of up to 2 calls), by
 *  iterative deepening within the budget: the depth reached, and depth 5's time and memory. */
export interface VocabularyFigures {
  faults: number;
  workloads: number;
  budgetSeconds: number;
  depthReached: number;
  byDepth: DepthRun[];
  /** Depth 5's run (cut off at the budget if it did not finish), or null if the clock ran out before. */
  depth5: DepthRun | null;
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
    /** The most the split into jobs allows on `workers` (bench/exhaustive-runs.ts `balanceBound`). */
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
  vocabulary: VocabularyFigures;
  /** The "does not apply" cells explored to depth 6 within the budget. */
  doesNotApplyDepth6: DepthRun & { budgetSeconds: number; proved: number; cells: number };
}

/** The parts of the section whose peak RSS is reported run where `run` says (bench/apart.ts: each in
 *  a process of its own, so that the peak is the part's own work's and not what the parts before it left). */
export type PartRunner = <P extends ExhaustivePart>(part: P, quick: boolean) => Promise<PartFigures[P]>;

export type ExhaustivePart = keyof PartFigures;
export interface PartFigures {
  seeds: Omit<ExhaustiveFigures, 'vocabulary' | 'doesNotApplyDepth6' | 'fingerprintCollisionBound'> & { largestJobStates: number };
  vocabulary: VocabularyFigures;
  depth6: ExhaustiveFigures['doesNotApplyDepth6'];
}

/** At least two workers: the budget's flag is read by worker threads, never by this one. */
const sectionWorkers = () => Math.max(2, defaultWorkers());
const budgetOf = (quick: boolean) => (quick ? 15 : 60);

/** The seed cells: iterative deepening within the budget, depth 4 on one worker and on all, which hold. */
async function seedPart(quick: boolean): Promise<PartFigures['seeds']> {
  const workers = sectionWorkers();
  const budgetSeconds = budgetOf(quick);
  const seeds = await deepen(workers, budgetSeconds, (d) => seedItems(d), 'seed cells');
  const byDepth = seeds.byDepth;
  const depthIn60s = seeds.reached;
  const last = byDepth.find((d) => d.depth === depthIn60s);
  const statesPerSecond = last ? round(last.states / last.seconds) : 0;

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
  await closeWorkers();
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
    safeCells: {
      doesNotApplyProved: safe.filter((s) => s.cell.role === 'does-not-apply' && s.result.verdict !== 'violated').length,
      doesNotApply: safe.filter((s) => s.cell.role === 'does-not-apply').length,
      holding: safe.filter((s) => s.result.verdict !== 'violated').length,
      seconds: median(all),
      violated: safe
        .filter((s) => s.result.verdict === 'violated')
        .map((s) => ({ cell: `[${s.cell.seed}] ${s.cell.name}`, faults: s.result.shortest!.faults.length })),
    },
    largestJobStates: Math.max(0, ...byDepth.map((d) => d.largestJobStates), ...depth4Jobs.map((j) => j.states)),
  };
}

/** The whole vocabulary, as `mcp-faultsim explore` searches it, by iterative deepening to depth 6 at most. */
async function vocabularyPart(quick: boolean): Promise<VocabularyFigures> {
  const budgetSeconds = budgetOf(quick);
  await freshThreads();
  const vocabulary = await deepen(sectionWorkers(), budgetSeconds, vocabularyItems, 'whole vocabulary', 6);
  await closeWorkers();
  return {
    faults: faultVocabulary(NO_ADDITIONS).length,
    workloads: sequentialWorkloads(DEFAULT_EXPLORE_CALLS, 'any').length,
    budgetSeconds,
    depthReached: vocabulary.reached,
    byDepth: vocabulary.byDepth,
    depth5: vocabulary.byDepth.find((d) => d.depth === 5) ?? null,
  };
}

/** The "does not apply" seed cells to depth 6 within the budget. */
async function depth6Part(quick: boolean): Promise<PartFigures['depth6']> {
  const budgetSeconds = budgetOf(quick);
  note('exhaustive: "does not apply" cells, depth 6');
  const notApplying = (role: string) => role === 'does-not-apply';
  await freshThreads();
  const d6 = await runDepth(6, sectionWorkers(), Date.now() + budgetSeconds * 1000, seedItems(6, notApplying));
  const d6Cells = SEED_CELLS.filter((c) => notApplying(c.role));
  const d6Proved = d6Cells.filter((cell, i) => {
    const e = d6.explorations[i]!;
    return e.complete && e.results.find((x) => x.property === cell.property)!.verdict !== 'violated';
  }).length;
  await closeWorkers();
  return { ...d6.run, budgetSeconds, proved: d6Proved, cells: d6Cells.length };
}

/** The parts, in the order the section runs them. */
export const EXHAUSTIVE_PARTS: { [K in ExhaustivePart]: (quick: boolean) => Promise<PartFigures[K]> } = {
  seeds: seedPart,
  vocabulary: vocabularyPart,
  depth6: depth6Part,
};

/** One part, in this process. */
export function measurePart<P extends ExhaustivePart>(part: P, quick: boolean): Promise<PartFigures[P]> {
  return EXHAUSTIVE_PARTS[part](quick) as Promise<PartFigures[P]>;
}

/** The section: its parts where `run` runs them (in this process by default). */
export async function measureExhaustive(quick: boolean, run: PartRunner = measurePart): Promise<ExhaustiveFigures> {
  const { largestJobStates, ...seeds } = await run('seeds', quick);
  const vocabulary = await run('vocabulary', quick);
  const doesNotApplyDepth6 = await run('depth6', quick);
  const largest = Math.max(largestJobStates, ...vocabulary.byDepth.map((d) => d.largestJobStates), doesNotApplyDepth6.largestJobStates);
  return { ...seeds, fingerprintCollisionBound: Number((largest ** 2 / 2 ** 65).toPrecision(2)), vocabulary, doesNotApplyDepth6 };
}

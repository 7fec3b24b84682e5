// One `compare` run as it goes: where its cells run (cell threads, with this thread taking cells while
// the mitigation finder leaves it idle; the exhaustive pool for --depth; the wire tier for --wire
// rows), its progress bar, what stops it (SIGINT, --time-limit) and the wall-clock figures its report
// keeps under `timing`. The comparison itself (compare/compare.ts) reads no clock and knows no
// signal: this object is its executors and its observer.
import { setFlagsFromString } from 'node:v8';
import { PolicyError } from '../../models/additions.ts';
import type { CellExecutors, CellRunner, ComparisonMatrix, ComparisonObserver } from '../compare/compare.ts';
import { checkCell } from '../compare/check-cell.ts';
import { CELLS_PER_THREAD, cellThreads, IN_THREAD_RUNS, type CellThreads } from '../compare/cell-threads.ts';
import type { MatrixCell } from '../compare/matrix.ts';
import type { RunConfig } from '../plugins/run-config.ts';
import { withExhaustive } from '../search/certify.ts';
import { sequentialWorkloads, type Exploration, type ExhaustiveOptions } from '../search/exhaustive/exhaustive.ts';
import { exploreInParallel, exploreMatrix } from '../search/exhaustive/parallel.ts';
import { stopper, type Stopper } from './common-options.ts';
import { progressBar, type Progress } from './progress.ts';
import { EXIT } from './errors.ts';
import { cellThreadsFor, COMPARE_INLINING_BUDGET, MANY_CELLS } from './commands/compare-options.ts';

/** What `compare`'s options asked for (cli/commands/compare.ts `comparePlan`). */
export interface ComparePlan {
  matrix: ComparisonMatrix;
  config: RunConfig;
  outDir: string;
  timeLimit: number | undefined;
  depth: number | undefined;
  workers: number;
  workersGiven: boolean;
  /** The wire tier's matrix module, loaded only for --wire. */
  wire: typeof import('../wire/matrix.ts') | null;
  clientCmd: string | undefined;
  /** No progress bar (--quiet, --json). */
  quiet: boolean;
}

/** How `compare --depth` explores a model cell: its alphabet, sequential workloads of 1-3 calls. */
function depthOptions(cell: MatrixCell, depth: number): ExhaustiveOptions {
  return { faults: cell.faults, depth, workloads: sequentialWorkloads(3, cell.shape.workload?.progress === 'always' ? 'always' : 'any') };
}

/**
 * The random check of a cell, then the exhaustive search to `depth` beside it (search/certify.ts).
 * Every model cell's search runs on one pool, started at the first cell for the whole matrix (a
 * pool per cell reloads the project on every thread for every cell). If a designer's policy fails
 * in that batch, each cell is explored on its own instead, so that the failure is that cell's finding.
 */
function withDepth(runner: CellRunner, cells: readonly MatrixCell[], depth: number, workers: number): CellRunner {
  const model = cells.filter((c) => !c.wire);
  let explored: Promise<Map<MatrixCell, Exploration>> | undefined;
  const exploreAll = async (config: RunConfig) => {
    const items = model.map((cell) => ({ combination: cell.combination, options: depthOptions(cell, depth) }));
    try {
      const all = await exploreMatrix(items, config, { workers });
      return new Map(model.map((cell, i) => [cell, all[i]!]));
    } catch (e) {
      if (e instanceof PolicyError) return new Map<MatrixCell, Exploration>();
      throw e;
    }
  };
  return async (cell, config, onProgress) => {
    const random = await runner(cell, config, onProgress);
    explored ??= exploreAll(config);
    const exploration =
      (await explored).get(cell) ?? (await exploreInParallel(cell.combination, depthOptions(cell, depth), config, { workers }));
    return withExhaustive(random, exploration);
  };
}

type Stopped = 'sigint' | 'time-limit' | null;

export class CompareSession {
  readonly executors: CellExecutors;
  readonly observer: ComparisonObserver;
  private readonly threads: CellThreads | null;
  private readonly progress: Progress;
  private readonly stop: Stopper;
  private readonly total: number;
  private readonly started = Date.now();
  private stopped: Stopped = null;
  // Several cells may be under way (queued on a thread, one here): the bar counts those finished and
  // names the first one still running.
  private cellsDone = 0;
  private cellName = '';
  private readonly underWay: MatrixCell[] = [];
  private readonly cellMs: Record<string, number> = {};
  private cellsDoneMs: number | null = null;
  private finderSearches: { asked: number; distinct: number; fromCells: number } | null = null;
  private cellsOnMainThread: number | null = null;
  private readonly cellThreads: number;
  private readonly onSigint = () => this.threads?.stop();

  constructor(plan: ComparePlan, runner: CellRunner) {
    const { matrix, config, depth, wire } = plan;
    const cells = matrix.cells;
    this.total = cells.length;
    // Not with --wire (its cells run here, on virtual time) or --depth (its pool has the cores).
    const count =
      wire || depth !== undefined
        ? 1
        : plan.workersGiven
          ? Math.min(plan.workers, cells.length)
          : cellThreadsFor(cells.length, config.runs);
    // A comparison of many cells keeps far less live on this thread than V8 lets its heap grow to
    // between full collections while they are cheap; capped at twice the live size (process-wide, so
    // the cell threads too, for the rest of this process): the full matrix's peak RSS about 600 → 410 MB
    // for about a tenth more CPU (docs/performance.md). Not on a few cells (the default compare: no gain).
    if (cells.length >= MANY_CELLS) setFlagsFromString('--heap-growing-percent=100');
    // Most of a comparison's runs go by before V8 has optimized the code they take, and on Node 20 the
    // optimizing compiler's own CPU time (on its background thread, every function once or more) is
    // much of what a cold run costs. Inlining a quarter of what it would (920 bytes of bytecode a
    // function) compiles less: the default compare 11.0 → 8.5 s CPU, the full matrix the same or less,
    // and warm runs the same (docs/performance.md). Process-wide; not in explore, whose long warm runs
    // lose 5–10% with it.
    setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${COMPARE_INLINING_BUDGET}`);
    // The default runner's cells run on pool threads, so that Ctrl-C and --time-limit reach inside a
    // long cell (compare/cell-threads.ts), unless they are a few short ones (`cellThreadsFor`: then
    // here); a runner given by a caller runs here, as given.
    this.cellThreads = runner === checkCell ? count : 0;
    this.threads = this.cellThreads > 0 ? cellThreads(count, config, (done, total) => this.onRuns(done, total), checkCell) : null;
    // Plain model cells also queue on their threads and run here while the finder leaves this thread idle
    // (compare.ts `idleRunner`), if short: a signal waits for a cell that runs here.
    const plain = this.threads !== null && !wire && depth === undefined;
    const idle = plain && config.runs <= IN_THREAD_RUNS;
    const base = this.threads ? this.threads.runner : runner;
    const model = depth === undefined ? base : withDepth(base, cells, depth, plan.workers);
    if (idle) this.cellsOnMainThread = 0;
    this.executors = {
      runner: this.timed(wire ? wire.withWire(model) : model),
      // The cell threads, idle once the cells are done, run the finder's searches beside this thread.
      ...(this.threads ? { searchHelpers: this.threads.helpers, concurrency: plain ? count * CELLS_PER_THREAD : count } : {}),
      ...(idle ? { idleRunner: this.timed((cell, c, p) => (this.cellsOnMainThread!++, checkCell(cell, c, p))) } : {}),
    };
    this.observer = {
      beforeCell: (_done, total, next) => this.beforeCell(total, next),
      duringCell: (runsDone, runsTotal) => this.duringCell(runsDone, runsTotal),
      onCellsDone: () => {
        this.cellsDoneMs = Date.now() - this.started;
      },
      onSearchCounts: (counts) => {
        this.finderSearches = counts;
      },
    };
    this.progress = progressBar(!plan.quiet);
    this.stop = stopper(plan.timeLimit);
    process.on('SIGINT', this.onSigint);
  }

  /** The comparison returned: the threads' heaps go before the reports are written; the figures for `timing`. */
  async cellsFinished(): Promise<Record<string, unknown>> {
    this.progress.done();
    await this.threads?.close();
    // A SIGINT that stopped a cell thread mid-cell ends the comparison without another progress
    // point (the cell rejects): read why here, or the report says interrupted with no cause.
    this.stopped ??= this.stop.reason();
    return {
      startedAt: new Date(this.started).toISOString(),
      wallMs: Date.now() - this.started,
      // When the cells were done; from there to wallMs, the mitigation finder's last searches.
      cellsDoneMs: this.cellsDoneMs,
      // Cell threads beside this one (none: every cell ran here).
      cellThreads: this.cellThreads,
      // How many cells this thread ran while the finder left it idle (the rest ran on the cell threads).
      ...(this.cellsOnMainThread !== null ? { cellsOnMainThread: this.cellsOnMainThread } : {}),
      // The searches the finder was asked for, the distinct ones it ran, and those a cell's runs answered.
      finderSearches: this.finderSearches,
      ...(this.stopped ? { stoppedBy: this.stopped } : {}),
      cellMs: this.cellMs,
    };
  }

  async dispose(): Promise<void> {
    process.off('SIGINT', this.onSigint);
    this.stop.dispose();
    this.progress.done();
    await this.threads?.close();
  }

  exitCode(): number {
    this.stopped ??= this.stop.reason();
    return this.stopped === 'sigint' ? 130 : this.stopped === 'time-limit' ? 124 : EXIT.ok;
  }

  /** A cell thread's runs: the bar, and the stop flag once a signal or the time limit says so. */
  private onRuns(runsDone: number, runsTotal: number): void {
    this.progress.update(this.cellsDone, this.total, this.cellName, runsTotal === 0 ? 0 : runsDone / runsTotal);
    const why = this.stop.reason();
    if (why !== null) {
      this.stopped = why;
      this.threads?.stop();
    }
  }

  /** A cell's runs in this thread: the bar, and true (stop inside the cell) once stopped. */
  private duringCell(runsDone: number, runsTotal: number): boolean {
    this.progress.update(this.cellsDone, this.total, this.cellName, runsTotal === 0 ? 0 : runsDone / runsTotal);
    this.stopped = this.stop.reason();
    return this.stopped !== null;
  }

  private async beforeCell(total: number, next: MatrixCell): Promise<boolean> {
    this.underWay.push(next);
    this.cellName = this.underWay[0]!.name;
    this.progress.update(this.cellsDone, total, this.cellName);
    await new Promise((r) => setImmediate(r)); // let a SIGINT be delivered between cells
    this.stopped = this.stop.reason();
    return this.stopped !== null;
  }

  /** `r`, noting each cell's wall time for the report's `timing`. */
  private timed(r: CellRunner): CellRunner {
    return async (cell, config, onProgress) => {
      const t = Date.now();
      try {
        return await r(cell, config, onProgress);
      } finally {
        this.cellMs[cell.id] = Date.now() - t;
        this.cellsDone++;
        const at = this.underWay.indexOf(cell);
        if (at >= 0) this.underWay.splice(at, 1);
        this.cellName = this.underWay[0]?.name ?? this.cellName;
      }
    };
  }
}

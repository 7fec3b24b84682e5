// How a comparison's cells are run: up to `concurrency` at once on the caller's runner (its cell
// threads), and one more on this thread whenever it has nothing else to do (`idleRunner`); a new one
// starts as soon as any ends. Each cell's findings are annotated as soon as it is done, while the
// next cells run; results are taken in cell order, so the comparison is the same for any concurrency
// and wherever each cell ran. Between cells (and, through a runner's progress, inside one) the
// caller may stop the run: what finished is kept, and the run is marked interrupted.
import { JobStopped } from '../search/pool/pool.ts';
import type { RunConfig } from '../plugins/run-config.ts';
import type { Annotator } from './annotator.ts';
import type { CellResult } from './cell-result.ts';
import type { CellRunner, Progress, ReportedFinding } from './cell-runner.ts';
import { checkCell } from './check-cell.ts';
import { findingsOf } from './findings.ts';
import type { MatrixCell } from './matrix.ts';
import type { RemoteSearcher } from './mitigation-searches.ts';
import { runCell } from './run-cell.ts';

/** Where a comparison's cells and the finder's searches run (the default: each cell here, by `checkCell`). */
export interface CellExecutors {
  runner?: CellRunner;
  /** How many cells may run at once (the runner spreads them over its threads; default 1). The
   *  comparison is the same for any value. */
  concurrency?: number;
  /** Runs a cell in this thread, beside the `concurrency` cells on the runner's threads, whenever this
   *  thread has nothing else to do (the finder's queue is empty): its work and the cell threads' then
   *  end together. Given only where a cell here is short enough to hold this thread (a signal waits for it). */
  idleRunner?: CellRunner;
  /** Where the mitigation finder's searches may also run once the cells are done (a thread of the
   *  caller's, e.g. its idle cell thread): this thread runs them too. */
  searchHelpers?: readonly RemoteSearcher[];
}

/** What watches a comparison, and may stop it. */
export interface ComparisonObserver {
  /** Called before each cell; true stops the comparison there (it is then marked interrupted). */
  beforeCell?: (done: number, total: number, next: MatrixCell) => boolean | Promise<boolean>;
  /** Called as a cell's random runs finish (done, total); true stops the comparison inside the cell:
   *  that cell is dropped and the comparison is marked interrupted. */
  duringCell?: (done: number, total: number) => boolean;
  /** Called once the cells are done (or stopped), before the last findings' mitigations are in. */
  onCellsDone?: () => void;
  /** Called at the end with how many searches the finder was asked for, how many distinct ones ran,
   *  and how many of those a cell's runs answered (compare/mitigation-searches.ts); and, of the runs
   *  this thread's searches asked for, how many it judged and recorded (the rest the run store answered,
   *  or a cell's flags: compare/mitigation-runs.ts `markFor`). */
  onSearchCounts?: (counts: {
    asked: number;
    distinct: number;
    fromCells: number;
    runsHere: { asked: number; judged: number; recorded: number };
  }) => void;
}

/** Thrown out of a cell's run loop (by `duringCell`) to stop the comparison inside it; a cell thread's
 *  stopped job rejects with its base class, JobStopped (search/pool/job.ts). */
export class CellStopped extends JobStopped {}

/** One started cell: its result (null: stopped before it started), and when it was handed to its runner. */
interface Started {
  run: Promise<CellResult | null>;
  handedOver: Promise<void>;
}

/** The cells of one comparison as they are started, taken in order and annotated. */
export class CellScheduler {
  private readonly started: Started[] = [];
  private readonly handovers: Promise<void>[] = [];
  private readonly results: CellResult[] = [];
  private readonly annotated: Promise<ReportedFinding[]>[] = [];
  private readonly onProgress: Progress | undefined;
  private readonly window: number;
  private running = 0;
  private runningHere = false;
  private stopping = false;

  constructor(
    private readonly cells: readonly MatrixCell[],
    private readonly config: RunConfig,
    private readonly annotator: Annotator,
    private readonly executors: CellExecutors,
    private readonly observer: ComparisonObserver,
  ) {
    const during = observer.duringCell;
    this.onProgress = during
      ? (done, total) => {
          if (during(done, total)) throw new CellStopped();
        }
      : undefined;
    this.window = Math.max(1, executors.concurrency ?? 1);
  }

  /** Every cell's result in cell order (those that finished, if stopped), whether it was interrupted,
   *  and the findings, annotated. */
  async run(): Promise<{ results: CellResult[]; interrupted: boolean; findings: ReportedFinding[] }> {
    const searches = this.annotator.searches;
    if (this.executors.idleRunner) searches.onIdle = () => this.launch();
    this.launch();
    const interrupted = await this.takeInOrder();
    searches.onIdle = null;
    searches.cellsDone();
    this.observer.onCellsDone?.();
    for (const helper of this.executors.searchHelpers ?? []) void searches.helpWith(helper);
    return { results: this.results, interrupted, findings: (await Promise.all(this.annotated)).flat() };
  }

  /** Take each cell's result in cell order, annotating its findings; true when the run was stopped. */
  private async takeInOrder(): Promise<boolean> {
    const { cells, started } = this;
    let taken = 0;
    let interrupted = false;
    for (; taken < cells.length; taken++) {
      const s = started[taken];
      const result = s ? await this.settled(s) : null; // no `s`: stopped before this cell started
      if (!result) {
        interrupted = true;
        break;
      }
      // The cells started meanwhile reach their runner first: this thread's share comes after.
      await Promise.all(this.handovers.splice(0));
      this.keep(result);
    }
    // Stopped: the cells that ran beside the stopped one keep what they finished.
    for (const s of interrupted ? started.slice(taken + 1) : []) {
      const result = await this.settled(s);
      if (result) this.keep(result);
    }
    return interrupted;
  }

  private keep(result: CellResult): void {
    this.results.push(result);
    this.annotated.push(this.annotator.annotate(findingsOf(result, this.config.world)));
  }

  /** Start cells while the window allows, and one here while this thread is idle. */
  private launch(): void {
    const { cells, executors } = this;
    while (!this.stopping && this.started.length < cells.length) {
      const here = this.running >= this.window;
      if (here && (!executors.idleRunner || this.runningHere || !this.annotator.searches.idle)) break;
      const s = this.start(this.started.length, here ? executors.idleRunner! : (executors.runner ?? checkCell));
      this.started.push(s);
      this.handovers.push(s.handedOver);
      if (here) this.runningHere = true;
      else this.running++;
      // Settled here before anyone awaits it: the next cell starts before this thread reads the result.
      const ended = (stopped: boolean) => {
        if (here) this.runningHere = false;
        else this.running--;
        if (stopped) this.stopping = true;
        this.launch();
      };
      s.run.then(
        (r) => ended(r === null),
        () => ended(true),
      );
    }
  }

  /** Cell i+1 goes to the runner before cell i's findings are worked out here (their histories, the
   *  finder's replays): a cell thread never waits for this thread's share of the work. */
  private start(i: number, runner: CellRunner): Started {
    let handed!: () => void;
    const handedOver = new Promise<void>((r) => (handed = r));
    const { cells, config, annotator, observer } = this;
    const run = (async (): Promise<CellResult | null> => {
      const cell = cells[i]!;
      try {
        if (observer.beforeCell && (await observer.beforeCell(i, cells.length, cell))) return null;
        return runCell(cell, runner, config, {
          ...(this.onProgress ? { onProgress: this.onProgress } : {}),
          onSampled: (sampled, reads) => annotator.offer(cell, sampled, reads),
        });
      } finally {
        handed();
      }
    })();
    run.catch(() => {}); // awaited later; this only keeps it from counting as unhandled meanwhile
    return { run, handedOver };
  }

  /** A cell's result, or null if it was stopped (before it started, or inside it). */
  private async settled(s: Started): Promise<CellResult | null> {
    try {
      return await s.run;
    } catch (e) {
      if (!(e instanceof JobStopped)) throw e;
      return null;
    }
  }
}

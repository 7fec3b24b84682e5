// Running a comparison: every cell of a matrix through every property, one cell at a time, by a
// cell runner that can be swapped (the default runs `check`; another tier may add its own fields to
// each result, which the reports carry along). A policy that fails inside a cell becomes that
// cell's `policy-error` finding and the matrix goes on. Between cells the caller may stop the run
// (SIGINT, a time limit): what finished is returned, marked interrupted. `check` runs its one
// combination by the same path (`singleCell`, `runCell`, `findingsOf`).
import type { FaultName } from '../../models/faults.ts';
import type { Combination } from '../../models/policies.ts';
import { notApplicable } from '../../models/policies.ts';
import { PolicyError } from '../../models/extensions.ts';
import { PROPERTIES, type Property } from '../../properties/properties.ts';
import type { CheckResult } from '../search/random/result.ts';
import { coverageReport } from '../world/coverage.ts';
import type { WorldOptions } from '../world/world.ts';
import { emptyReach } from '../core/reach.ts';
import { classify, type CellResult } from './cell-result.ts';
import { findingsOf } from './findings.ts';
import { migrationRows, type MigrationRow } from './migration.ts';
import type { Cut, MatrixCell, MatrixKind } from './matrix.ts';
import { policyErrorReport, type PolicyErrorReport } from '../search/random/policy-errors.ts';
import { emptyStats } from '../../properties/stats.ts';
import { TOOL } from '../core/tool.ts';
import type { RemoteSearcher } from './mitigation-searches.ts';
import { checkCell, type RunnerResult } from './check-cell.ts';
import { Annotator } from './annotator.ts';
import type { CellRunner, ReportedFinding, RunSettings } from './run-settings.ts';
import { brokenWithoutFaults, worldFaultFree, type BrokenWithoutFaults } from './fault-free.ts';
import { checkShape } from '../search/random/check.ts';

export { CELL_CLASSES, classify, type CellClass, type CellResult } from './cell-result.ts';
export { Annotator } from './annotator.ts';
export { checkCell, type RunnerResult } from './check-cell.ts';
export type { CellRunner, ReportedFinding, RunSettings } from './run-settings.ts';

export interface Comparison {
  format: 'mcp-faultsim/compare';
  version: 1;
  tool: { name: string; version: string };
  seed: number;
  runs: number;
  properties: string[];
  matrix: { kind: MatrixKind; cut: Cut; size: number };
  /** The policy modules loaded, as given on the command line. */
  policies: string[];
  /** Present on a shard's result only; a merge of all shards has none, like an unsharded run. */
  shard?: { index: number; count: number };
  interrupted: boolean;
  cells: CellResult[];
  findings: ReportedFinding[];
  /** `--matrix migration`: what moving from 2025-11-25 to 2026-07-28 does, per seed cell (compare/migration.ts). */
  migration?: MigrationRow[];
  /** Wall-clock figures: the only part of a report that differs between identical runs. */
  timing?: Record<string, unknown>;
}

/** `check`'s one combination as a cell of its own, so that it runs, classifies and yields findings
 *  exactly as a comparison's cells do. */
export function singleCell(combination: Combination, faults: readonly FaultName[]): MatrixCell {
  const where = { index: 0, id: 'check', name: 'check', record: null, role: 'product', alphabet: 'cell alphabet' } as const;
  return { ...where, combination, faults, property: null, shape: {} };
}

/** Run one cell; a policy's failure becomes its finding instead of an exception. `onSampled` gets
 *  the flags of its first runs, if the runner kept them (`checkCell` does), and their reads if it has them.
 *  Works without faults, first: a model cell whose fault-free runs fail a call runs no fault at all
 *  (compare/fault-free.ts); its class says so. */
export async function runCell(
  cell: MatrixCell,
  runner: CellRunner,
  settings: RunSettings,
  onSampled?: (sampled: Uint8Array, reads?: Uint16Array) => void,
): Promise<CellResult> {
  const { seed, runs, properties } = settings;
  const nothing: CheckResult = {
    combination: cell.combination,
    seed,
    runs,
    faults: cell.faults,
    results: [],
    stats: emptyStats(),
    coverage: coverageReport(emptyReach()),
  };
  let result = nothing;
  let policyError: PolicyErrorReport | null = null;
  let broken: BrokenWithoutFaults | null = null;
  try {
    const shape = checkShape(cell.combination, cell.faults, cell.shape);
    broken = cell.wire ? null : brokenWithoutFaults(cell.combination, worldFaultFree(cell.combination, settings.world), shape);
    if (!broken) {
      const { sampled, sampledReads, ...rest } = (await runner(cell, settings)) as RunnerResult;
      result = rest;
      // Only the runs of this very cell, as these settings draw them (a runner may wrap checkCell otherwise).
      const same = rest.seed === seed && rest.runs === runs && rest.faults.join() === cell.faults.join();
      if (sampled && same && JSON.stringify(rest.combination) === JSON.stringify(cell.combination)) onSampled?.(sampled, sampledReads);
    }
  } catch (e) {
    if (!(e instanceof PolicyError)) throw e;
    policyError = policyErrorReport(e, { ...cell, seed, runs, properties, world: settings.world ?? {} });
    result = nothing;
  }
  const { index, id, name, record, role, alphabet, migration } = cell;
  // Knobs configuring what this pair of revisions never reaches: said, never silently ignored.
  const skipped = notApplicable(cell.combination);
  return {
    index,
    id,
    name,
    record,
    role,
    alphabet,
    ...(migration ? { migration } : {}),
    class: classify(result, policyError, broken),
    ...result,
    policyError,
    ...(broken ? { brokenWithoutFaults: broken } : {}),
    ...(skipped.length ? { notApplicable: skipped } : {}),
  };
}

export interface ComparisonOptions {
  seed: number;
  runs: number;
  kind: MatrixKind;
  cut: Cut;
  /** The whole matrix's size (a shard runs only some of its cells). */
  size: number;
  policies: string[];
  shard?: { index: number; count: number };
  runner?: CellRunner;
  properties?: readonly Property[];
  /** The model world's options (default: DEFAULT_WORLD); each finding records them. */
  world?: Partial<WorldOptions>;
  /** Called before each cell; true stops the comparison there (it is then marked interrupted). */
  beforeCell?: (done: number, total: number, next: MatrixCell) => boolean | Promise<boolean>;
  /** Called as a cell's random runs finish (done, total); true stops the comparison inside the cell:
   *  that cell is dropped and the comparison is marked interrupted. */
  duringCell?: (done: number, total: number) => boolean;
  /** Where the mitigation finder's searches may also run once the cells are done (a thread of the
   *  caller's, e.g. its idle cell thread): this thread runs them too. */
  searchHelpers?: readonly RemoteSearcher[];
  /** How many cells may run at once (the runner spreads them over its threads; default 1). The
   *  comparison is the same for any value. */
  concurrency?: number;
  /** Runs a cell in this thread, beside the `concurrency` cells on the runner's threads, whenever this
   *  thread has nothing else to do (the finder's queue is empty): its work and the cell threads' then
   *  end together. Given only where a cell here is short enough to hold this thread (a signal waits for it). */
  idleRunner?: CellRunner;
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

/** Thrown out of a cell's run loop (by `duringCell`, or a runner on another thread) to stop the comparison inside it. */
export class CellStopped extends Error {}

export async function runComparison(cells: readonly MatrixCell[], o: ComparisonOptions): Promise<Comparison> {
  const during = o.duringCell;
  const onProgress = during
    ? (done: number, total: number) => {
        if (during(done, total)) throw new CellStopped();
      }
    : undefined;
  const settings: RunSettings = {
    seed: o.seed,
    runs: o.runs,
    properties: o.properties ?? PROPERTIES,
    ...(o.world ? { world: o.world } : {}),
    ...(onProgress ? { onProgress } : {}),
  };
  const results: CellResult[] = [];
  // Each cell's findings are annotated as soon as it is done, while the next cells run (on the
  // caller's cell thread, if it has one); the finder's searches wait in one queue for this thread,
  // and for the helpers once the cells are done.
  const annotator = new Annotator(cells, settings);
  const annotated: Promise<ReportedFinding[]>[] = [];
  let interrupted = false;
  // Cell i+1 goes to the runner before cell i's findings are worked out here (their histories, the
  // finder's replays): a cell thread never waits for this thread's share of the work.
  const start = (i: number, runner: CellRunner) => {
    let handed!: () => void;
    const handedOver = new Promise<void>((r) => (handed = r));
    const run = (async (): Promise<CellResult | null> => {
      const cell = cells[i]!;
      try {
        if (o.beforeCell && (await o.beforeCell(i, cells.length, cell))) return null;
        return runCell(cell, runner, settings, (sampled, reads) => annotator.offer(cell, sampled, reads));
      } finally {
        handed();
      }
    })();
    run.catch(() => {}); // awaited below; this only keeps it from counting as unhandled meanwhile
    return { run, handedOver };
  };
  // Up to `concurrency` cells run at once (on as many cell threads), and one more here while this
  // thread is idle (`idleRunner`): a new one starts as soon as any ends. Results are taken in cell
  // order, so the comparison is the same for any concurrency and wherever each cell ran.
  const window = Math.max(1, o.concurrency ?? 1);
  const started: ReturnType<typeof start>[] = [];
  const handovers: Promise<void>[] = [];
  let running = 0;
  let runningHere = false;
  let stopping = false;
  const launch = () => {
    while (!stopping && started.length < cells.length) {
      const here = running >= window;
      if (here && (!o.idleRunner || runningHere || !annotator.searches.idle)) break;
      const s = start(started.length, here ? o.idleRunner! : (o.runner ?? checkCell));
      started.push(s);
      handovers.push(s.handedOver);
      if (here) runningHere = true;
      else running++;
      // Settled here before anyone awaits it: the next cell starts before this thread reads the result.
      const ended = (stopped: boolean) => {
        if (here) runningHere = false;
        else running--;
        if (stopped) stopping = true;
        launch();
      };
      s.run.then(
        (r) => ended(r === null),
        () => ended(true),
      );
    }
  };
  /** A cell's result, or null if it was stopped (before it started, or inside it). */
  const settled = async (s: ReturnType<typeof start>): Promise<CellResult | null> => {
    try {
      return await s.run;
    } catch (e) {
      if (!(e instanceof CellStopped)) throw e;
      return null;
    }
  };
  if (o.idleRunner) annotator.searches.onIdle = launch;
  launch();
  let taken = 0;
  for (; taken < cells.length; taken++) {
    const s = started[taken];
    if (!s) {
      interrupted = true; // stopped before this cell started
      break;
    }
    const result = await settled(s);
    if (!result) {
      interrupted = true;
      break;
    }
    results.push(result);
    // The cells started meanwhile reach their runner first: this thread's share comes after.
    await Promise.all(handovers.splice(0));
    annotated.push(annotator.annotate(findingsOf(result, o.world)));
  }
  // Stopped: the cells that ran beside the stopped one keep what they finished.
  for (const s of interrupted ? started.slice(taken + 1) : []) {
    const result = await settled(s);
    if (!result) continue;
    results.push(result);
    annotated.push(annotator.annotate(findingsOf(result, o.world)));
  }
  annotator.searches.onIdle = null;
  annotator.searches.cellsDone();
  o.onCellsDone?.();
  for (const helper of o.searchHelpers ?? []) void annotator.searches.helpWith(helper);
  const findings = (await Promise.all(annotated)).flat();
  o.onSearchCounts?.({
    ...annotator.searches.counts,
    runsHere: { ...annotator.runCounts },
  });
  return {
    format: 'mcp-faultsim/compare',
    version: 1,
    tool: TOOL,
    seed: o.seed,
    runs: o.runs,
    properties: settings.properties.map((p) => p.name),
    matrix: { kind: o.kind, cut: o.cut, size: o.size },
    policies: o.policies,
    ...(o.shard ? { shard: o.shard } : {}),
    interrupted,
    cells: results,
    findings,
    ...(o.kind === 'migration' ? { migration: migrationRows(results) } : {}),
  };
}

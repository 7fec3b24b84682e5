// `mcp-faultsim compare`: run a matrix of combinations through every property and write the
// reports (Markdown, HTML, JSON, one counterexample file per finding) into --out.
import { setFlagsFromString } from 'node:v8';
import { DEFAULT_DETAILS } from '../../../reports/compare-common.ts';
import { renderJson } from '../../../reports/compare-json.ts';
import { renderSummary } from '../../../reports/compare-text.ts';
import { DEFAULT_RUNS, DEFAULT_SEED } from '../../search/random/check.ts';
import { withExhaustive } from '../../search/certify.ts';
import { checkCell, runComparison, type CellRunner, type RunSettings } from '../../compare/compare.ts';
import { sequentialWorkloads, type Exploration, type ExhaustiveOptions } from '../../search/exhaustive/exhaustive.ts';
import { defaultWorkers, exploreInParallel, exploreMatrix } from '../../search/exhaustive/pool.ts';
import { NO_EXTENSIONS, PolicyError, type ModelExtensions } from '../../../models/extensions.ts';
import { registryProperties, worldOf } from '../../plugins/loaded.ts';
import { DEFAULT_SERVER } from '../../../models/policies.ts';
import { requireWorkingReference } from '../reference-check.ts';
import { buildMatrix, MATRIX_KINDS, shardOf, type Cut, type MatrixCell, type MatrixKind } from '../../compare/matrix.ts';
import { helpText, intOption, parseArgs, stringOption } from '../args.ts';
import { policiesOption, secondsOption, shardOption, stopper } from '../common-options.ts';
import { EXIT, UsageError } from '../errors.ts';
import { parseKnobList } from '../knobs.ts';
import { progressBar } from '../progress.ts';
import { CELLS_PER_THREAD, cellThreads, IN_THREAD_RUNS } from '../cell-thread.ts';
import { checkOutDir } from '../files.ts';
import { DEFAULT_OUT, writeReports } from '../report-files.ts';
import { cellThreadsFor, HELP_EXTRA, MANY_CELLS, OPTIONS } from './compare-options.ts';

export { MANY_CELLS };

export function parseCut(server: string | undefined, client: string | undefined, ext: ModelExtensions = NO_EXTENSIONS): Cut {
  return { server: parseKnobList('server', server ?? '', ext), client: parseKnobList('client', client ?? '', ext) };
}

/** How `compare --depth` explores a model cell: its alphabet, sequential workloads of 1-3 calls. */
function depthOptions(cell: MatrixCell, depth: number, settings: RunSettings): ExhaustiveOptions {
  return {
    faults: cell.faults,
    depth,
    workloads: sequentialWorkloads(3, cell.shape.workload?.progress === 'always' ? 'always' : 'any'),
    properties: settings.properties,
    ...(settings.world ? { world: settings.world } : {}),
  };
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
  const exploreAll = async (settings: RunSettings) => {
    const items = model.map((cell) => ({ combination: cell.combination, options: depthOptions(cell, depth, settings) }));
    try {
      const all = await exploreMatrix(items, { workers });
      return new Map(model.map((cell, i) => [cell, all[i]!]));
    } catch (e) {
      if (e instanceof PolicyError) return new Map<MatrixCell, Exploration>();
      throw e;
    }
  };
  return async (cell, settings) => {
    const random = await runner(cell, settings);
    explored ??= exploreAll(settings);
    const exploration =
      (await explored).get(cell) ?? (await exploreInParallel(cell.combination, depthOptions(cell, depth, settings), { workers }));
    return withExhaustive(random, exploration);
  };
}

export async function runCompare(argv: readonly string[], out: NodeJS.WritableStream, runner: CellRunner = checkCell): Promise<number> {
  const args = parseArgs(argv, OPTIONS, 'compare');
  if (args.options.help) {
    const summary =
      'Run a matrix of policy combinations through every property, on random fault plans, and report which\nfail silently, which fail loudly (and whether they recover), and which stay clean.';
    out.write(
      helpText(
        'mcp-faultsim compare [--matrix seeds|full|migration] [--server K=V|V,…] [--client K=V|V,…] [--policies FILE] [--out DIR] [--shard i/n] [--depth K] [--wire]',
        summary,
        OPTIONS,
        HELP_EXTRA,
      ),
    );
    return EXIT.ok;
  }
  if (args.positionals.length) throw new UsageError(`compare: unexpected argument '${args.positionals[0]}'`);
  const kind = (stringOption(args, 'matrix') ?? 'seeds') as MatrixKind;
  if (!MATRIX_KINDS.includes(kind)) throw new UsageError(`unknown --matrix '${kind}' (valid: ${MATRIX_KINDS.join(', ')})`);
  const policies = await policiesOption(args);
  const cut = parseCut(stringOption(args, 'server'), stringOption(args, 'client'), policies.extensions);
  const seed = intOption(args, 'seed', DEFAULT_SEED, { min: -(2 ** 31), max: 2 ** 31 - 1 });
  const runs = intOption(args, 'runs', DEFAULT_RUNS, { min: 1, max: 1_000_000 });
  const details = intOption(args, 'details', DEFAULT_DETAILS, { min: 0 });
  const shard = shardOption(args);
  const timeLimit = secondsOption(args, 'time-limit');
  const outDir = stringOption(args, 'out') ?? DEFAULT_OUT;
  const depth = args.options.depth === undefined ? undefined : intOption(args, 'depth', 0, { min: 0, max: 12 });
  const workers = intOption(args, 'workers', defaultWorkers(), { min: 1, max: 256 });
  const workersGiven = args.options.workers !== undefined;

  const clientCmd = stringOption(args, 'client-cmd');
  const model = buildMatrix(kind, cut, policies.cells, policies.extensions);
  // The wire tier (msw, the SDKs) loads only for --wire: it is most of this command's start-up time.
  const wire = args.options.wire ? await import('../../wire/matrix.ts') : null;
  const wireRows = !wire ? [] : clientCmd !== undefined ? wire.clientCmdCells(model, clientCmd) : wire.wireCells(model);
  const matrix = [...model, ...wireRows];
  if (matrix.length === 0)
    throw new UsageError(
      `the cut leaves no cell of the ${kind} matrix${kind === 'seeds' ? ' (to compare any combination, add --matrix full)' : ''}`,
    );
  const cells = shard ? shardOf(matrix, shard) : matrix;
  checkOutDir(outDir);
  // A client process that cannot run the fault-free workload would fill its rows with errors: exit 2 first.
  if (clientCmd !== undefined) {
    const { runWire } = await import('../../wire/world.ts');
    await requireWorkingReference('compare --client-cmd', (workload) =>
      runWire({ client: { kind: 'cmd', command: clientCmd }, server: { kind: 'model', policy: DEFAULT_SERVER } }, { workload, plan: [] }),
    );
  }
  // The default runner's cells run on a worker thread, so that Ctrl-C and --time-limit reach inside a
  // long cell (cli/cell-thread.ts); a runner given by a caller runs here, as given.
  const onRuns = (runsDone: number, runsTotal: number) => {
    progress.update(cellsDone, cells.length, cellName, runsTotal === 0 ? 0 : runsDone / runsTotal);
    const why = stop.reason();
    if (why !== null) {
      stopped = why;
      thread?.stop();
    }
  };
  // Not with --wire (its cells run here, on virtual time) or --depth (its pool has the cores).
  const cellThreadCount =
    args.options.wire || depth !== undefined ? 1 : workersGiven ? Math.min(workers, cells.length) : cellThreadsFor(cells.length);
  // A comparison of many cells keeps 60–85 MB live on this thread, but V8 lets a heap grow to 3–4× its
  // live size between full collections while they are cheap: 440 MB peak RSS on the full matrix.
  // Capped at twice the live size (process-wide, so the cell threads too, and for the rest of this
  // process): 325–345 MB, ≈ 1% more CPU. Not on a few cells (the default compare: no gain).
  if (cells.length >= MANY_CELLS) setFlagsFromString('--heap-growing-percent=100');
  const thread = runner === checkCell ? cellThreads(cellThreadCount, policies.modules, onRuns, checkCell) : null;
  // Plain model cells also queue on their threads and run here while the finder leaves this thread idle
  // (compare.ts `idleRunner`), if short: a signal waits for a cell that runs here.
  const plain = thread !== null && !wire && depth === undefined;
  const concurrency = plain ? cellThreadCount * CELLS_PER_THREAD : cellThreadCount;
  const idleRunner = plain && runs <= IN_THREAD_RUNS ? checkCell : undefined;
  const base = thread ? thread.runner : runner;
  const modelRunner = depth === undefined ? base : withDepth(base, cells, depth, workers);
  const cellRunner = wire ? wire.withWire(modelRunner) : modelRunner;

  const progress = progressBar(!args.options.quiet && !args.options.json);
  const stop = stopper(timeLimit);
  const stopThread = () => thread?.stop();
  process.on('SIGINT', stopThread);
  const started = Date.now();
  const cellMs: Record<string, number> = {};
  let stopped: 'sigint' | 'time-limit' | null = null;
  // Several cells may be under way (queued on a thread, one here): the bar counts those finished and
  // names the first one still running.
  let cellsDone = 0;
  let cellName = '';
  const underWay: MatrixCell[] = [];
  let cellsDoneMs: number | null = null;
  let finderSearches: { asked: number; distinct: number; fromCells: number } | null = null;
  let cellsOnMainThread = 0;
  /** A runner that notes each cell's wall time, for the report's `timing`. */
  const timed =
    (r: CellRunner): CellRunner =>
    async (cell, settings) => {
      const t = Date.now();
      try {
        return await r(cell, settings);
      } finally {
        cellMs[cell.id] = Date.now() - t;
        cellsDone++;
        const at = underWay.indexOf(cell);
        if (at >= 0) underWay.splice(at, 1);
        cellName = underWay[0]?.name ?? cellName;
      }
    };
  try {
    const comparison = await runComparison(cells, {
      seed,
      runs,
      kind,
      cut,
      size: matrix.length,
      policies: [...policies.modules],
      properties: registryProperties(policies),
      world: worldOf(policies),
      ...(shard ? { shard } : {}),
      // The cell thread, idle once the cells are done, runs the finder's searches beside this thread.
      ...(thread ? { searchHelpers: thread.helpers, concurrency } : {}),
      ...(idleRunner ? { idleRunner: timed((cell, settings) => (cellsOnMainThread++, idleRunner(cell, settings))) } : {}),
      onCellsDone: () => {
        cellsDoneMs = Date.now() - started;
      },
      onSearchCounts: (counts) => {
        finderSearches = counts;
      },
      runner: timed(cellRunner),
      duringCell: (runsDone, runsTotal) => {
        progress.update(cellsDone, cells.length, cellName, runsTotal === 0 ? 0 : runsDone / runsTotal);
        stopped = stop.reason();
        return stopped !== null;
      },
      beforeCell: async (_done, total, next) => {
        underWay.push(next);
        cellName = underWay[0]!.name;
        progress.update(cellsDone, total, cellName);
        await new Promise((r) => setImmediate(r)); // let a SIGINT be delivered between cells
        stopped = stop.reason();
        return stopped !== null;
      },
    });
    progress.done();
    // The cell threads have nothing more to do: their heaps go before the reports are written.
    await thread?.close();
    // A SIGINT that stopped the cell thread mid-cell ends the comparison without another progress
    // point (the cell rejects): read why here, or the report says interrupted with no cause.
    stopped ??= stop.reason();
    comparison.timing = {
      startedAt: new Date(started).toISOString(),
      wallMs: Date.now() - started,
      // When the cells were done; from there to wallMs, the mitigation finder's last searches.
      cellsDoneMs,
      // How many cells this thread ran while the finder left it idle (the rest ran on the cell threads).
      ...(idleRunner ? { cellsOnMainThread } : {}),
      // The searches the finder was asked for, the distinct ones it ran, and those a cell's runs answered.
      finderSearches,
      ...(stopped ? { stoppedBy: stopped } : {}),
      cellMs,
    };
    const written = writeReports(comparison, outDir, details);
    if (args.options.json) out.write(renderJson(comparison, shard ? Number.POSITIVE_INFINITY : details));
    else
      out.write(
        `${renderSummary(comparison, policies.properties)}\nwrote these files:\n${written.map((w) => `  ${w}\n`).join('')}${shard ? "join the shards' compare.json files with: mcp-faultsim merge FILE… --out DIR\n" : ''}`,
      );
  } finally {
    process.off('SIGINT', stopThread);
    stop.dispose();
    progress.done();
    await thread?.close();
  }
  stopped ??= stop.reason();
  return stopped === 'sigint' ? 130 : stopped === 'time-limit' ? 124 : EXIT.ok;
}

export const command = {
  name: 'compare',
  summary: 'run a matrix of policy combinations and write Markdown, HTML and JSON reports of which fail silently, loudly, or not at all',
  run: (argv: readonly string[], out: NodeJS.WritableStream) => runCompare(argv, out),
};

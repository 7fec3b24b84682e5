// `mcp-faultsim compare`: run a matrix of combinations through every property and write the
// reports (Markdown, HTML, JSON, one counterexample file per finding) into --out. What is read from
// the options is here (`comparePlan`); how the run goes — its threads, progress, stopping and
// wall-clock figures — is cli/compare-session.ts.
import { DEFAULT_DETAILS } from '../../../reports/compare-common.ts';
import { renderJson } from '../../../reports/compare-json.ts';
import { renderSummary } from '../../../reports/compare-text.ts';
import { DEFAULT_RUNS, DEFAULT_SEED } from '../../search/random/check.ts';
import { checkCell, runComparison, type CellRunner, type ComparisonMatrix } from '../../compare/compare.ts';
import { defaultWorkers } from '../../search/exhaustive/parallel.ts';
import type { PolicyAdditions } from '../../../models/additions.ts';
import { runConfig, type RunConfig } from '../../plugins/run-config.ts';
import { DEFAULT_SERVER } from '../../../models/policies.ts';
import { requireWorkingReference } from '../reference-check.ts';
import { buildMatrix, DEPRECATED_MATRIX_KINDS, MATRIX_KINDS, shardOf, type Cut, type MatrixKind } from '../../compare/matrix.ts';
import { helpText, intOption, parseArgs, stringOption, type Parsed } from '../args.ts';
import { policiesOption, secondsOption, shardOption } from '../common-options.ts';
import { EXIT, UsageError } from '../errors.ts';
import { parseKnobList } from '../knobs.ts';
import { checkOutDir } from '../files.ts';
import { DEFAULT_OUT, writeReports } from '../report-files.ts';
import { CompareSession, type ComparePlan } from '../compare-session.ts';
import { HELP_EXTRA, MANY_CELLS, OPTIONS } from './compare-options.ts';

export { MANY_CELLS };

/** The cut `--server` and `--client` ask for, knob values the modules added included. */
export function parseCut(server: string | undefined, client: string | undefined, additions: PolicyAdditions): Cut {
  return { server: parseKnobList('server', server ?? '', additions), client: parseKnobList('client', client ?? '', additions) };
}

/** What the options ask for: the matrix, the run's config, where the reports go, how it may run. */
async function comparePlan(args: Parsed): Promise<ComparePlan & { details: number }> {
  if (args.positionals.length) throw new UsageError(`compare: unexpected argument '${args.positionals[0]}'`);
  const asked = stringOption(args, 'matrix') ?? 'records';
  const kind = (DEPRECATED_MATRIX_KINDS[asked] ?? asked) as MatrixKind;
  if (!MATRIX_KINDS.includes(kind)) throw new UsageError(`unknown --matrix '${kind}' (valid: ${MATRIX_KINDS.join(', ')})`);
  if (kind !== asked) process.stderr.write(`mcp-faultsim compare: --matrix ${asked} is now --matrix ${kind} (the old name still works)\n`);
  const policies = await policiesOption(args);
  const cut = parseCut(stringOption(args, 'server'), stringOption(args, 'client'), policies.additions);
  const seed = intOption(args, 'seed', DEFAULT_SEED, { min: -(2 ** 31), max: 2 ** 31 - 1 });
  const runs = intOption(args, 'runs', DEFAULT_RUNS, { min: 1, max: 1_000_000 });
  const config: RunConfig = runConfig({ registry: policies, seed, runs });
  const details = intOption(args, 'details', DEFAULT_DETAILS, { min: 0 });
  const shard = shardOption(args);
  const timeLimit = secondsOption(args, 'time-limit');
  const outDir = stringOption(args, 'out') ?? DEFAULT_OUT;
  const depth = args.options.depth === undefined ? undefined : intOption(args, 'depth', 0, { min: 0, max: 12 });
  const workers = intOption(args, 'workers', defaultWorkers(), { min: 1, max: 256 });
  const workersGiven = args.options.workers !== undefined;

  const clientCmd = stringOption(args, 'client-cmd');
  // The modules' cells join the matrix from the run's config, like everything else they add.
  const model = buildMatrix(kind, cut, config.registry.cells, config.registry.additions);
  // The wire tier (msw, the SDKs) loads only for --wire: it is most of this command's start-up time.
  const wire = args.options.wire ? await import('../../wire/matrix.ts') : null;
  const wireRows = !wire ? [] : clientCmd !== undefined ? wire.clientCmdCells(model, clientCmd) : wire.wireCells(model);
  const all = [...model, ...wireRows];
  if (all.length === 0)
    throw new UsageError(
      `the cut leaves no cell of the ${kind} matrix${kind === 'records' ? ' (to compare any combination, add --matrix full)' : ''}`,
    );
  const matrix: ComparisonMatrix = { cells: shard ? shardOf(all, shard) : all, kind, cut, size: all.length, ...(shard ? { shard } : {}) };
  const quiet = Boolean(args.options.quiet || args.options.json);
  return { matrix, config, details, outDir, timeLimit, depth, workers, workersGiven, wire, clientCmd, quiet };
}

export async function runCompare(argv: readonly string[], out: NodeJS.WritableStream, runner: CellRunner = checkCell): Promise<number> {
  const args = parseArgs(argv, OPTIONS, 'compare');
  if (args.options.help) {
    const summary =
      'Run a matrix of policy combinations through every property, on random fault plans, and report which\nfail silently, which fail loudly (and whether they recover), and which stay clean.';
    out.write(
      helpText(
        'mcp-faultsim compare [--matrix records|full|migration] [--server K=V|V,…] [--client K=V|V,…] [--policies FILE] [--out DIR] [--shard i/n] [--depth K] [--wire]',
        summary,
        OPTIONS,
        HELP_EXTRA,
      ),
    );
    return EXIT.ok;
  }
  const plan = await comparePlan(args);
  checkOutDir(plan.outDir);
  // A client process that cannot run the fault-free workload would fill its rows with errors: exit 2 first.
  if (plan.clientCmd !== undefined) {
    const { runWire } = await import('../../wire/world.ts');
    const command = plan.clientCmd;
    await requireWorkingReference('compare --client-cmd', (workload) =>
      runWire({ client: { kind: 'cmd', command }, server: { kind: 'model', policy: DEFAULT_SERVER } }, { workload, plan: [] }),
    );
  }
  const session = new CompareSession(plan, runner);
  try {
    const comparison = await runComparison(plan.matrix, plan.config, session.executors, session.observer);
    comparison.timing = await session.cellsFinished();
    const { shard } = plan.matrix;
    const written = writeReports(comparison, plan.outDir, plan.details);
    if (args.options.json) out.write(renderJson(comparison, shard ? Number.POSITIVE_INFINITY : plan.details));
    else
      out.write(
        `${renderSummary(comparison, plan.config.registry.properties)}\nwrote these files:\n${written.map((w) => `  ${w}\n`).join('')}${shard ? "join the shards' compare.json files with: mcp-faultsim merge FILE… --out DIR\n" : ''}`,
      );
  } finally {
    await session.dispose();
  }
  return session.exitCode();
}

export const command = {
  name: 'compare',
  run: (argv: readonly string[], out: NodeJS.WritableStream) => runCompare(argv, out),
};

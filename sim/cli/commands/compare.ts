// `mcp-faultsim compare`: the seed cells side by side, each under its record's own fault alphabet,
// with the verdict of every property and the shrunk plan of each record's failure.
import { formatCombination } from '../../../models/policies.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { table } from '../../../reports/table.ts';
import { SEED_CELLS } from '../../cells.ts';
import { check, DEFAULT_RUNS, DEFAULT_SEED, type CheckResult } from '../../check.ts';
import { describePlan } from '../../plan.ts';
import { helpText, intOption, parseArgs, type OptionSpec } from '../args.ts';
import { EXIT, UsageError } from '../errors.ts';
import { progressBar } from '../progress.ts';

const OPTIONS: Record<string, OptionSpec> = {
  seed: { value: true, arg: 'N', help: `fast-check seed (default ${DEFAULT_SEED})` },
  runs: { value: true, arg: 'N', help: `random runs per property and cell (default ${DEFAULT_RUNS})` },
  json: { value: false, help: 'print {"cells": [one check object per cell]} instead of the table' },
  quiet: { value: false, help: 'no progress bar' },
  help: { value: false, help: 'show this help' },
};

const SHORT: Record<string, string> = { holds: 'ok', violated: 'FAIL', vacuous: 'vac' };

export async function runCompare(argv: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const args = parseArgs(argv, OPTIONS, 'compare');
  if (args.options.help) {
    out.write(
      helpText(
        'mcp-faultsim compare [--seed N] [--runs N] [--json]',
        "Run every combination the two seed records discuss (the vulnerable cells, each \"does not apply\"\ncondition, and the beyond-the-records cells), each under its record's fault alphabet, and print\nwhich fail silently, which fail loudly and which stay clean.",
        OPTIONS,
      ),
    );
    return EXIT.ok;
  }
  if (args.positionals.length) throw new UsageError(`compare: unexpected argument '${args.positionals[0]}'`);
  const seed = intOption(args, 'seed', DEFAULT_SEED, { min: -(2 ** 31), max: 2 ** 31 - 1 });
  const runs = intOption(args, 'runs', DEFAULT_RUNS, { min: 1, max: 1_000_000 });
  const progress = progressBar(!args.options.quiet && !args.options.json);
  const results: { cell: (typeof SEED_CELLS)[number]; result: CheckResult }[] = [];
  for (const [i, cell] of SEED_CELLS.entries()) {
    progress.update(i, SEED_CELLS.length, cell.name);
    const result = check(cell.combination, { faults: cell.faults, seed, runs, shape: { workload: { overlap: false, progress: cell.progressCalls ? 'always' : 'any' } } });
    results.push({ cell, result });
  }
  progress.done();
  if (args.options.json) {
    out.write(`${JSON.stringify({ cells: results.map(({ cell, result }) => ({ name: cell.name, record: cell.seed, role: cell.role, ...result })) }, null, 2)}\n`);
    return EXIT.ok;
  }
  const header = ['seed', 'cell', ...PROPERTIES.map((p) => p.name), 'calls: ok/error/silent'];
  const rows = results.map(({ cell, result }) => {
    const o = result.results[0]!.outcomes;
    return [cell.seed, cell.name, ...result.results.map((r) => SHORT[r.verdict]!), `${o.ok}/${o.error}/${o['silent-empty'] + o['silent-hang']}`];
  });
  const lines = [`mcp-faultsim compare: ${SEED_CELLS.length} cells, seed ${seed}, ${runs} runs per property`, '', table(header, rows), ''];
  lines.push('Shrunk counterexamples of the records\' properties:');
  for (const { cell, result } of results) {
    const r = result.results.find((p) => p.property === cell.property)!;
    const recovers = result.results.find((p) => p.property === 'recovers')!;
    const verdict = r.counterexample ? `silent failure: ${describePlan(r.counterexample.faults)}` : recovers.counterexample ? `no silent failure, but no recovery: ${describePlan(recovers.counterexample.faults)}` : 'clean';
    lines.push(`  [${cell.seed}] ${cell.name}: ${cell.property} ${r.verdict} — ${verdict}`);
    lines.push(`        ${formatCombination(cell.combination)}; faults ${cell.faults.join(', ')}`);
  }
  out.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}

export const command = { name: 'compare', summary: "run the seed records' combinations side by side and print which fail silently, loudly, or not at all", run: runCompare };

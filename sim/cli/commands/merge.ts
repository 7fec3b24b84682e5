// `mcp-faultsim merge a.json b.json … --out DIR`: join the compare.json of each shard into the
// reports an unsharded `compare` writes (identical outside `timing`).
import { readFileSync } from 'node:fs';
import { DEFAULT_DETAILS } from '../../../reports/compare-common.ts';
import { renderJson } from '../../../reports/compare-json.ts';
import { renderSummary } from '../../../reports/compare-text.ts';
import { BadMerge, merge, parseComparison } from '../../compare/merge.ts';
import { helpText, intOption, parseArgs, stringOption, type OptionSpec } from '../args.ts';
import { EXIT, UsageError } from '../errors.ts';
import { DEFAULT_OUT, writeReports } from '../report-files.ts';

const OPTIONS: Record<string, OptionSpec> = {
  out: { value: true, arg: 'DIR', help: `where the reports go (default ${DEFAULT_OUT})` },
  details: { value: true, arg: 'N', help: `findings shown with history and diagram (default ${DEFAULT_DETAILS})` },
  json: { value: false, help: 'print the merged JSON report on stdout instead of the summary table' },
  help: { value: false, help: 'show this help' },
};

export async function runMerge(argv: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const args = parseArgs(argv, OPTIONS, 'merge');
  if (args.options.help) {
    out.write(
      helpText(
        'mcp-faultsim merge SHARD.json… [--out DIR]',
        "Join the compare.json files of 'compare --shard i/n' runs (every i from 1 to n, same settings) into\nthe reports an unsharded compare would write: compare.md, compare.html, compare.json, counterexamples/.",
        OPTIONS,
        '\nexit status: 0 merged, 2 a file that is missing, malformed, from other settings, or a shard missing.',
      ),
    );
    return EXIT.ok;
  }
  if (args.positionals.length === 0) throw new UsageError('merge needs the compare.json of every shard');
  const details = intOption(args, 'details', DEFAULT_DETAILS, { min: 0 });
  try {
    const parts = args.positionals.map((name) => {
      let text: string;
      try {
        text = readFileSync(name, 'utf8');
      } catch (e) {
        throw new BadMerge(`${name}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      }
      return { name, comparison: parseComparison(text, name) };
    });
    const merged = merge(parts);
    const written = writeReports(merged, stringOption(args, 'out') ?? DEFAULT_OUT, details);
    out.write(
      args.options.json
        ? renderJson(merged, details)
        : `${renderSummary(merged)}\nwrote these files:\n${written.map((w) => `  ${w}\n`).join('')}`,
    );
    return EXIT.ok;
  } catch (e) {
    if (e instanceof BadMerge) throw new UsageError(`merge: ${e.message}`);
    throw e;
  }
}

export const command = { name: 'merge', run: runMerge };

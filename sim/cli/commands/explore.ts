// `mcp-faultsim explore`: every fault plan up to a depth, on one combination, on every core.
import { combination } from '../../../models/policies.ts';
import { POLICIES_OPTION, policiesOption } from '../common-options.ts';
import { renderExplore } from '../../../reports/explore-text.ts';
import { helpText, intOption, parseArgs, stringOption, type OptionSpec } from '../args.ts';
import { EXIT, UsageError } from '../errors.ts';
import { EXHAUSTIVE_OPTIONS, exhaustiveFromArgs } from '../exhaustive-args.ts';
import { parseClient, parseServer } from '../knobs.ts';
import { CHECK_OPTIONS } from './check.ts';

export const DEFAULT_DEPTH = 3;

const OPTIONS: Record<string, OptionSpec> = {
  server: CHECK_OPTIONS.server!,
  client: CHECK_OPTIONS.client!,
  faults: CHECK_OPTIONS.faults!,
  property: { value: true, arg: 'P', help: 'explore only this property (fewer distinct states; default: every property)' },
  ...EXHAUSTIVE_OPTIONS,
  depth: { ...EXHAUSTIVE_OPTIONS.depth!, help: `explore every plan of up to K faults (default ${DEFAULT_DEPTH})` },
  policies: POLICIES_OPTION,
  json: { value: false, help: 'print one JSON object instead of the table' },
  quiet: { value: false, help: 'no progress bar' },
  coverage: { value: false, help: 'list every machine state and transition no run reached (default: the summary line)' },
  help: { value: false, help: 'show this help' },
};

export async function runExplore(argv: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const args = parseArgs(argv, OPTIONS, 'explore');
  if (args.options.help) {
    out.write(
      helpText(
        'mcp-faultsim explore [--server K=V,…] [--client K=V,…] [--faults F,…] [--property P] [--depth K] [--calls N] [--json] [--policies FILE,…]',
        'Explore every fault plan of up to K faults (each fault of the alphabet at every request a run\ncarries) on every sequential workload of up to N calls, merging runs that reach the same state.\nPer property: holds up to depth K (distinct states, plans covered), or its shortest counterexample.',
        OPTIONS,
        '\nexit status: 0 every property holds to the depth, 1 one is violated, 2 bad input, 4 incomplete: --max-states\nstopped the search before the depth and nothing was violated (what holds, holds only to the depth finished).\nDepth is what costs: plans grow as (faults × requests)^K; distinct states grow far slower.',
      ),
    );
    return EXIT.ok;
  }
  if (args.positionals.length) throw new UsageError(`explore: unexpected argument '${args.positionals[0]}'`);
  const registry = await policiesOption(args);
  const c = combination(
    {
      server: parseServer(stringOption(args, 'server') ?? '', registry.additions),
      client: parseClient(stringOption(args, 'client') ?? '', registry.additions),
    },
    registry.additions,
  );
  // Depth 0 explores the fault-free run only, where every property holds by construction: refused.
  const depth = intOption(args, 'depth', DEFAULT_DEPTH, { min: 1, max: 12 });
  const e = await exhaustiveFromArgs(args, c, depth, Boolean(args.options.quiet || args.options.json), registry);
  out.write(args.options.json ? `${JSON.stringify(e, null, 2)}\n` : renderExplore(e, Boolean(args.options.coverage)));
  if (e.results.some((r) => r.verdict === 'violated')) return EXIT.violated;
  return e.complete ? EXIT.ok : EXIT.incomplete;
}

export const command = {
  name: 'explore',
  run: runExplore,
};

// `mcp-faultsim check`: run the properties over one combination.
import { expandFault, FAULT_VOCABULARY, type FaultName } from '../../../models/faults.ts';
import { combination } from '../../../models/policies.ts';
import { PROPERTIES, propertyByName } from '../../../properties/properties.ts';
import { renderCheck } from '../../../reports/check-text.ts';
import { check, DEFAULT_RUNS, DEFAULT_SEED } from '../../check.ts';
import { helpText, intOption, parseArgs, stringOption, type OptionSpec } from '../args.ts';
import { EXIT, UsageError } from '../errors.ts';
import { parseClient, parseServer } from '../knobs.ts';
import { progressBar } from '../progress.ts';
import { isWirePreset, runWireCheck, WIRE_HELP, WIRE_OPTIONS } from '../wire-check.ts';

export const CHECK_OPTIONS: Record<string, OptionSpec> = {
  server: { value: true, arg: 'K=V,…', help: 'server knobs, e.g. reinit=honor-last,streaming=negotiated,advertise=static (others: defaults)' },
  client: { value: true, arg: 'K=V,…', help: "client knobs, e.g. reconnect=replay-mutable,parser=pinned,guards=content-type+probe ('guards=' for none)" },
  faults: { value: true, arg: 'F,…', help: 'fault alphabet (default: the whole vocabulary); a family (strip-header, delay) means its default instances' },
  property: { value: true, arg: 'P', help: 'check only this property (default: all six)' },
  seed: { value: true, arg: 'N', help: `fast-check seed (default ${DEFAULT_SEED}); the same seed gives the same result` },
  runs: { value: true, arg: 'N', help: `random runs per property (default ${DEFAULT_RUNS})` },
  json: { value: false, help: 'print one JSON object instead of the table' },
  quiet: { value: false, help: 'no progress bar' },
  ...WIRE_OPTIONS,
  help: { value: false, help: 'show this help' },
};

export function parseFaults(text: string | undefined): FaultName[] {
  if (text === undefined) return [...FAULT_VOCABULARY];
  const out: FaultName[] = [];
  for (const item of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const expanded = expandFault(item);
    if (typeof expanded === 'string') throw new UsageError(expanded);
    for (const f of expanded) if (!out.includes(f)) out.push(f);
  }
  if (out.length === 0) throw new UsageError('--faults names no fault');
  return out;
}

export function parseProperty(name: string | undefined) {
  if (name === undefined) return PROPERTIES;
  const p = propertyByName(name);
  if (!p) throw new UsageError(`unknown property '${name}' (valid: ${PROPERTIES.map((q) => q.name).join(', ')})`);
  return [p];
}

export async function runCheck(argv: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const args = parseArgs(argv, CHECK_OPTIONS, 'check');
  if (args.options.help) {
    out.write(
      helpText(
        'mcp-faultsim check [--wire] [--server K=V,…|PRESET] [--client K=V,…|sdk] [--faults F,…] [--property P] [--seed N] [--runs N] [--json]',
        'Run the silent-failure properties over one combination of policies, on random fault plans and\nworkloads; print each verdict and, for a violation, the shrunk fault plan that reproduces it.',
        CHECK_OPTIONS,
        `${WIRE_HELP}\n\nexit status: 0 every property holds (or is vacuous), 1 a property is violated, 2 bad input.\nKnobs, values and faults: mcp-faultsim list`,
      ),
    );
    return EXIT.ok;
  }
  if (args.positionals.length) throw new UsageError(`check: unexpected argument '${args.positionals[0]}'`);
  if (args.options.wire) {
    return runWireCheck(args, out, { faults: parseFaults(stringOption(args, 'faults')), properties: parseProperty(stringOption(args, 'property')) });
  }
  for (const side of ['client', 'server'] as const) {
    if (isWirePreset(side, stringOption(args, side))) throw new UsageError(`--${side} ${stringOption(args, side)} is real code: add --wire`);
  }
  for (const o of ['target', 'serve', 'serve-path', 'tools']) if (args.options[o] !== undefined) throw new UsageError(`--${o} needs --wire`);
  const c = combination({ server: parseServer(stringOption(args, 'server') ?? ''), client: parseClient(stringOption(args, 'client') ?? '') });
  const progress = progressBar(!args.options.quiet && !args.options.json);
  const result = check(c, {
    faults: parseFaults(stringOption(args, 'faults')),
    properties: parseProperty(stringOption(args, 'property')),
    seed: intOption(args, 'seed', DEFAULT_SEED, { min: -(2 ** 31), max: 2 ** 31 - 1 }),
    runs: intOption(args, 'runs', DEFAULT_RUNS, { min: 1, max: 1_000_000 }),
    onProgress: (done, total) => progress.update(done, total, 'runs'),
  });
  progress.done();
  out.write(args.options.json ? `${JSON.stringify(result, null, 2)}\n` : renderCheck(result));
  return result.results.some((r) => r.verdict === 'violated') ? EXIT.violated : EXIT.ok;
}

export const command = { name: 'check', summary: "run the properties over one combination and print shrunk counterexamples", run: runCheck };

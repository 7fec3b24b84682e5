// `mcp-faultsim check`: run the properties over one combination.
import { combination } from '../../../models/policies.ts';
import { runConfig } from '../../plugins/run-config.ts';
import { renderBroken, renderCheck } from '../../../reports/check-text.ts';
import { withExhaustive } from '../../search/certify.ts';
import { DEFAULT_RUNS, DEFAULT_SEED } from '../../search/random/check.ts';
import { helpText, intOption, parseArgs, stringOption, type OptionSpec } from '../args.ts';
import { EXIT, UsageError } from '../errors.ts';
import { parseClient, parseServer } from '../knobs.ts';
import { progressBar } from '../progress.ts';
import { parseFaults, parseProperty, POLICIES_OPTION, policiesOption } from '../common-options.ts';
import { DEFAULT_CORPUS, saveFindings } from '../save-findings.ts';
import { checkCell, runCell, singleCell, type CellResult } from '../../compare/compare.ts';
import { findingsOf } from '../../compare/findings.ts';
import { describePlan } from '../../core/plan.ts';
import { EXHAUSTIVE_OPTIONS, exhaustiveFromArgs } from '../exhaustive-args.ts';
import { isWirePreset, WIRE_HELP, WIRE_OPTIONS } from '../wire-options.ts';

/** The option parsers check shares with explore (they live in cli/common-options.ts). */
export { parseFaults, parseProperty } from '../common-options.ts';

export const CHECK_OPTIONS: Record<string, OptionSpec> = {
  server: {
    value: true,
    arg: 'K=V,…',
    help: 'server knobs, e.g. reinit=honor-last,streaming=negotiated,advertise=static (others: defaults)',
  },
  client: {
    value: true,
    arg: 'K=V,…',
    help: "client knobs, e.g. reconnect=replay-mutable,parser=pinned,guards=content-type+probe ('guards=' for none)",
  },
  faults: {
    value: true,
    arg: 'F,…',
    help: 'fault alphabet (default: the whole vocabulary); a family (strip-header, delay) means its default instances',
  },
  property: { value: true, arg: 'P', help: 'check only this property (default: every property)' },
  seed: { value: true, arg: 'N', help: `fast-check seed (default ${DEFAULT_SEED}); the same seed gives the same result` },
  runs: { value: true, arg: 'N', help: `random runs per property (default ${DEFAULT_RUNS})` },
  json: { value: false, help: 'print one JSON object instead of the table' },
  policies: POLICIES_OPTION,
  save: { value: false, help: `save each finding as a counterexample file in the corpus (${DEFAULT_CORPUS}/)` },
  corpus: { value: true, arg: 'DIR', help: `where --save writes (default ${DEFAULT_CORPUS})` },
  quiet: { value: false, help: 'no progress bar' },
  coverage: { value: false, help: 'list every machine state and transition no run reached (default: the summary line)' },
  ...WIRE_OPTIONS,
  help: { value: false, help: 'show this help' },
};

/** check's options with `--depth` and its companions before --json, and the rules between the model tier and the wire tier. */
export function checkOptions(): Record<string, OptionSpec> {
  const { json, quiet, help, ...rest } = CHECK_OPTIONS;
  const depth = {
    ...EXHAUSTIVE_OPTIONS.depth!,
    help: 'also explore every plan of up to K faults exhaustively, beside the random runs',
    conflicts: [{ option: 'wire', why: '--depth explores the model tier' }],
  };
  const realCode = (side: 'client' | 'server') => ({ are: 'real code', test: (v: string) => isWirePreset(side, v), needs: 'wire' });
  // Each keeps its place in `rest`: only its rules are added.
  return {
    ...rest,
    server: { ...rest.server!, oneOf: 'server', valuesNeed: realCode('server') },
    client: { ...rest.client!, valuesNeed: realCode('client') },
    save: { ...rest.save!, conflicts: [{ option: 'wire', why: '--save keeps model-tier findings' }] },
    ...EXHAUSTIVE_OPTIONS,
    depth,
    json: json!,
    quiet: quiet!,
    help: help!,
  };
}

export async function runCheck(argv: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const spec = checkOptions();
  const args = parseArgs(argv, spec, 'check');
  if (args.options.help) {
    out.write(
      helpText(
        'mcp-faultsim check [--wire] [--server K=V,…|PRESET] [--client K=V,…|sdk|--client-cmd CMD] [--faults F,…] [--property P] [--seed N] [--runs N] [--depth K] [--json] [--save] [--policies FILE,…]',
        'Run the silent-failure properties over one combination of policies, on random fault plans and\nworkloads; print each verdict and, for a violation, the shrunk fault plan that reproduces it and\nwhether it is minimal (no plan with fewer faults violates it on its workload). With --depth, an\nexhaustive search to that depth runs beside the random one. With --wire, the same plans run on\nreal HTTP, against real code where a preset names it.',
        spec,
        `${WIRE_HELP}\n\nworks without faults, first: before any fault, the combination runs each kind of call the workloads\ndraw with no fault at all. If a call fails there (the sides cannot talk: e.g. a client that speaks only\n2026-07-28 and a server that speaks only 2025-11-25), check prints BROKEN WITHOUT FAULTS and the reason\nas its first line, tries no fault (every fault run would fail for that reason alone) and exits 5.\n(--json: the object's brokenWithoutFaults field. Model tier only: --wire runs real code as it is.)\n\nexit status: 0 every property holds (or is vacuous), 1 a property is violated or a policy failed\n(policy-error), 2 bad input, 4 a check against a real server did not finish (watchdog, server-failed),\n5 broken without faults: a call fails with no fault at all, so no fault was tried.\nKnobs, values and faults: mcp-faultsim list`,
      ),
    );
    return EXIT.ok;
  }
  if (args.positionals.length) throw new UsageError(`check: unexpected argument '${args.positionals[0]}'`);
  const policies = await policiesOption(args);
  if (args.options.wire) {
    // The wire tier (msw, the SDKs) loads only here: it is most of `check`'s start-up time otherwise.
    const { runWireCheck } = await import('../wire-check.ts');
    return runWireCheck(args, out, {
      faults: parseFaults(stringOption(args, 'faults'), policies),
      properties: parseProperty(stringOption(args, 'property'), policies),
      registry: policies,
    });
  }
  // Knob values are checked against this command's registry (combination() normalizes guards by it too).
  const c = combination(
    {
      server: parseServer(stringOption(args, 'server') ?? '', policies.additions),
      client: parseClient(stringOption(args, 'client') ?? '', policies.additions),
    },
    policies.additions,
  );
  const faults = parseFaults(stringOption(args, 'faults'), policies);
  const depth = args.options.depth === undefined ? undefined : intOption(args, 'depth', 0, { min: 0, max: 12 });
  const config = runConfig({
    registry: policies,
    properties: parseProperty(stringOption(args, 'property'), policies),
    seed: intOption(args, 'seed', DEFAULT_SEED, { min: -(2 ** 31), max: 2 ** 31 - 1 }),
    runs: intOption(args, 'runs', DEFAULT_RUNS, { min: 1, max: 1_000_000 }),
  });
  const progress = progressBar(!args.options.quiet && !args.options.json);
  // The same path as a comparison's cell: run, classify, and take its findings from the result.
  const random = await runCell(singleCell(c, faults), checkCell, config, {
    onProgress: (done, total) => progress.update(done, total, 'runs'),
  });
  progress.done();
  const { policyError, brokenWithoutFaults: broken } = random;
  if (broken) {
    out.write(args.options.json ? `${JSON.stringify(checkJson(random), null, 2)}\n` : renderBroken(random, broken));
    return EXIT.broken;
  }
  const result =
    depth === undefined || policyError
      ? random
      : withExhaustive(random, await exhaustiveFromArgs(args, c, depth, Boolean(args.options.quiet || args.options.json), policies));
  if (args.options.json) out.write(`${JSON.stringify(checkJson(result), null, 2)}\n`);
  else {
    out.write(renderCheck(result, Boolean(args.options.coverage)));
    if (policyError)
      out.write(`\npolicy-error: ${policyError.policy}: ${policyError.message}\n  faults    ${describePlan(policyError.faults)}\n`);
  }
  if (args.options.save) {
    const saved = saveFindings(findingsOf(result, config.world), stringOption(args, 'corpus') ?? DEFAULT_CORPUS, [...policies.modules]);
    if (!args.options.json) for (const s of saved) out.write(`${s.status === 'added' ? 'saved' : 'already saved'} ${s.path}\n`);
  }
  return policyError || result.results.some((r) => r.verdict === 'violated') ? EXIT.violated : EXIT.ok;
}

/** `check --json`: the check result of the combination (without the cell a comparison would place
 *  it in), and its policy error when a designer's policy failed; first, when its fault-free runs fail,
 *  why (`brokenWithoutFaults`: no fault was tried, its results are empty). */
function checkJson(r: CellResult): Record<string, unknown> {
  const { index: _i, id: _id, name: _n, record: _r, role: _ro, alphabet: _a, class: _c, policyError, brokenWithoutFaults, ...result } = r;
  if (brokenWithoutFaults) return { brokenWithoutFaults, ...result };
  return policyError ? { ...result, policyError } : result;
}

export const command = {
  name: 'check',
  run: runCheck,
};

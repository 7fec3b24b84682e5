// `mcp-faultsim list`: the vocabulary, with defaults.
import { allFaultFamilies } from '../../../models/faults.ts';
import { CLIENT_KNOBS, describeValue, knobValues, SERVER_KNOBS } from '../../../models/policies.ts';
import type { PolicyAdditions } from '../../../models/additions.ts';
import { EMPTY_REGISTRY, registryProperties, type Registry } from '../../plugins/loaded.ts';
import { POLICIES_OPTION, policiesOption } from '../common-options.ts';
import { helpText, parseArgs, type OptionSpec } from '../args.ts';
import { EXIT, UsageError } from '../errors.ts';

const OPTIONS: Record<string, OptionSpec> = {
  json: { value: false, help: 'print the vocabulary as JSON' },
  policies: POLICIES_OPTION,
  help: { value: false, help: 'show this help' },
};

type KnobTable = Record<string, { values: readonly string[]; default: string; meaning: string; describe: Record<string, string> }>;

function knobs(side: 'server' | 'client', table: KnobTable, additions: PolicyAdditions): string[] {
  const lines = [`${side} knobs:`];
  for (const [k, spec] of Object.entries(table)) {
    lines.push(`  ${side}.${k} — ${spec.meaning} (default: ${spec.default === '' ? 'none' : spec.default})`);
    for (const v of knobValues(side, k, additions)) lines.push(`      ${v.padEnd(15)} ${describeValue(side, k, v, additions)}`);
  }
  return lines;
}

/** The knob tables with the values policy modules registered. */
function withRegistered(side: 'server' | 'client', table: KnobTable, additions: PolicyAdditions): KnobTable {
  return Object.fromEntries(
    Object.entries(table).map(([k, spec]) => [
      k,
      {
        ...spec,
        values: knobValues(side, k, additions),
        describe: Object.fromEntries(knobValues(side, k, additions).map((v) => [v, describeValue(side, k, v, additions)])),
      },
    ]),
  );
}

export function vocabulary(registry: Registry = EMPTY_REGISTRY) {
  const additions = registry.additions;
  return {
    server: withRegistered('server', SERVER_KNOBS as unknown as KnobTable, additions),
    client: withRegistered('client', CLIENT_KNOBS as unknown as KnobTable, additions),
    faults: allFaultFamilies(additions).map((f) => ({
      fault: f.kind,
      fires: f.when === 'before' ? 'just before request n' : 'at request n',
      effect: f.effect,
      instances: f.instances,
    })),
    properties: registryProperties(registry).map((p) => ({ property: p.name, holdsWhen: p.holdsWhen })),
  };
}

export async function runList(argv: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const args = parseArgs(argv, OPTIONS, 'list');
  if (args.options.help) {
    out.write(
      helpText(
        'mcp-faultsim list [--json] [--policies FILE,…]',
        'Print every policy knob with its values and default, every fault and every property.',
        OPTIONS,
      ),
    );
    return EXIT.ok;
  }
  if (args.positionals.length) throw new UsageError(`list: unexpected argument '${args.positionals[0]}'`);
  const registry = await policiesOption(args);
  const additions = registry.additions;
  if (args.options.json) {
    out.write(`${JSON.stringify(vocabulary(registry), null, 2)}\n`);
    return EXIT.ok;
  }
  const lines = [
    ...knobs('server', SERVER_KNOBS as unknown as KnobTable, additions),
    '',
    ...knobs('client', CLIENT_KNOBS as unknown as KnobTable, additions),
    '',
    'faults (a plan fires each at a request index n):',
  ];
  for (const f of allFaultFamilies(additions)) {
    const names = f.instances.length > 1 ? `${f.kind}:…  (drawn: ${f.instances.join(', ')})` : f.kind;
    lines.push(`  ${names}`, `      fires ${f.when === 'before' ? 'just before request n' : 'at request n'}: ${f.effect}`);
  }
  lines.push('', 'properties:');
  for (const p of registryProperties(registry)) lines.push(`  ${p.name.padEnd(24)} holds when ${p.holdsWhen}`);
  out.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}

export const command = { name: 'list', summary: 'print the knobs, values, defaults, faults and properties', run: runList };

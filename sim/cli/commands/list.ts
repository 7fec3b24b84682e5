// `mcp-faultsim list`: the vocabulary, with defaults.
import { allFaultFamilies } from '../../../models/faults.ts';
import { describeValue, knobsOf, type Knob } from '../../../models/policies.ts';
import { columnOf, familyOf } from '../../../properties/fold.ts';
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

/** What `list` says of a knob beyond its values: where it came from, which revision alone has it,
 *  and that the full matrix holds it at its default. */
function notes(k: Knob): string {
  const { spec } = k;
  return [
    `default: ${spec.default === '' ? 'none' : spec.default}`,
    spec.revision ? `${spec.revision} only` : '',
    spec.valueRevision
      ? `${Object.keys(spec.valueRevision).join(', ')}: ${[...new Set(Object.values(spec.valueRevision))].join(', ')} only`
      : '',
    spec.fullMatrix === 'default' ? 'the full matrix holds it at its default' : '',
    k.source ? `from ${k.source}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

function knobLines(side: 'server' | 'client', additions: PolicyAdditions): string[] {
  const lines = [`${side} knobs:`];
  for (const k of knobsOf(side, additions)) {
    lines.push(`  ${side}.${k.knob} — ${k.spec.meaning} (${notes(k)})`);
    for (const v of k.spec.values) lines.push(`      ${v.padEnd(15)} ${describeValue(side, k.knob, v, additions)}`);
  }
  return lines;
}

/** A side's knobs as data: the built-in table's fields, with the values policy modules registered. */
function knobData(side: 'server' | 'client', additions: PolicyAdditions) {
  return Object.fromEntries(
    knobsOf(side, additions).map((k) => {
      const { values, default: byDefault, meaning, subset, revision, valueRevision, fullMatrix } = k.spec;
      const describe = Object.fromEntries(values.map((v) => [v, describeValue(side, k.knob, v, additions)]));
      const more = Object.entries({ subset, revision, valueRevision, fullMatrix, source: k.source }).filter(([, v]) => v !== undefined);
      return [k.knob, { values, default: byDefault, meaning, describe, ...Object.fromEntries(more) }];
    }),
  );
}

export function vocabulary(registry: Registry = EMPTY_REGISTRY) {
  const additions = registry.additions;
  return {
    server: knobData('server', additions),
    client: knobData('client', additions),
    faults: allFaultFamilies(additions).map((f) => ({
      fault: f.kind,
      fires: f.when === 'before' ? 'just before request n' : 'at request n',
      effect: f.effect,
      instances: f.instances,
    })),
    properties: registryProperties(registry).map((p) => ({
      property: p.name,
      holdsWhen: p.holdsWhen,
      family: familyOf(p),
      column: columnOf(p),
    })),
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
    ...knobLines('server', additions),
    '',
    ...knobLines('client', additions),
    '',
    'faults (a plan fires each at a request index n):',
  ];
  for (const f of allFaultFamilies(additions)) {
    const names = f.instances.length > 1 ? `${f.kind}:…  (drawn: ${f.instances.join(', ')})` : f.kind;
    lines.push(`  ${names}`, `      fires ${f.when === 'before' ? 'just before request n' : 'at request n'}: ${f.effect}`);
  }
  lines.push('', 'properties (family: silent, the agent is never told; invariant, a promised state; recovery, the session heals):');
  for (const p of registryProperties(registry)) lines.push(`  ${p.name.padEnd(24)} ${familyOf(p).padEnd(9)} holds when ${p.holdsWhen}`);
  out.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}

export const command = { name: 'list', run: runList };

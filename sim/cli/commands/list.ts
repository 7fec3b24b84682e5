// `mcp-faultsim list`: the vocabulary, with defaults.
import { FAULT_FAMILIES } from '../../../models/faults.ts';
import { CLIENT_KNOBS, SERVER_KNOBS } from '../../../models/policies.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { helpText, parseArgs, type OptionSpec } from '../args.ts';
import { EXIT, UsageError } from '../errors.ts';

const OPTIONS: Record<string, OptionSpec> = {
  json: { value: false, help: 'print the vocabulary as JSON' },
  help: { value: false, help: 'show this help' },
};

type KnobTable = Record<string, { values: readonly string[]; default: string; meaning: string; describe: Record<string, string> }>;

function knobs(side: string, table: KnobTable): string[] {
  const lines = [`${side} knobs:`];
  for (const [k, spec] of Object.entries(table)) {
    lines.push(`  ${side}.${k} — ${spec.meaning} (default: ${spec.default === '' ? 'none' : spec.default})`);
    for (const v of spec.values) lines.push(`      ${v.padEnd(15)} ${spec.describe[v]}`);
  }
  return lines;
}

export function vocabulary() {
  return {
    server: SERVER_KNOBS,
    client: CLIENT_KNOBS,
    faults: FAULT_FAMILIES.map((f) => ({ fault: f.kind, fires: f.when === 'before' ? 'just before request n' : 'at request n', effect: f.effect, instances: f.instances })),
    properties: PROPERTIES.map((p) => ({ property: p.name, holdsWhen: p.holdsWhen })),
  };
}

export async function runList(argv: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const args = parseArgs(argv, OPTIONS, 'list');
  if (args.options.help) {
    out.write(helpText('mcp-faultsim list [--json]', 'Print every policy knob with its values and default, every fault and every property.', OPTIONS));
    return EXIT.ok;
  }
  if (args.positionals.length) throw new UsageError(`list: unexpected argument '${args.positionals[0]}'`);
  if (args.options.json) {
    out.write(`${JSON.stringify(vocabulary(), null, 2)}\n`);
    return EXIT.ok;
  }
  const lines = [...knobs('server', SERVER_KNOBS as unknown as KnobTable), '', ...knobs('client', CLIENT_KNOBS as unknown as KnobTable), '', 'faults (a plan fires each at a request index n):'];
  for (const f of FAULT_FAMILIES) {
    const names = f.instances.length > 1 ? `${f.kind}:…  (drawn: ${f.instances.join(', ')})` : f.kind;
    lines.push(`  ${names}`, `      fires ${f.when === 'before' ? 'just before request n' : 'at request n'}: ${f.effect}`);
  }
  lines.push('', 'properties:');
  for (const p of PROPERTIES) lines.push(`  ${p.name.padEnd(24)} holds when ${p.holdsWhen}`);
  out.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}

export const command = { name: 'list', summary: "print the knobs, values, defaults, faults and properties", run: runList };

// A wire check as a person reads it: the model tier's check report (reports/check-text.ts), with
// what stood on each side instead of the knob lines, the faults the server could not take part in,
// and the command that reproduces each finding on the wire.
import type { CheckResult } from '../sim/search/random/check.ts';
import { checkCommand, renderCheck } from './check-text.ts';

export interface WireReport extends CheckResult {
  wire: { client: string; server: string };
  skipped: Record<string, string>;
}

/** `args` are the flags that name each side as given: `--client sdk`, `--server sdk-json`, `--target URL`… */
export function wireCommand(r: WireReport, args: { client: string; server: string }, property?: string): string {
  return [
    'mcp-faultsim check --wire',
    args.client,
    args.server,
    `--faults ${r.faults.join(',')}`,
    property ? `--property ${property}` : '',
    `--seed ${r.seed} --runs ${r.runs}`,
  ]
    .filter(Boolean)
    .join(' ');
}

export function renderWireCheck(r: WireReport, args: { client: string; server: string }): string {
  const lines = renderCheck(r).split('\n');
  // The first two lines name the model's knobs; on the wire a side may be real code.
  // A client process (`cmd …`) reaches the network through the loopback proxy, on the wall clock.
  const tier = r.wire.client.startsWith('cmd ')
    ? 'a client process through the loopback fault proxy, wall clock'
    : 'real HTTP through msw, virtual time';
  lines.splice(0, 2, `client  ${r.wire.client}`, `server  ${r.wire.server}`, `tier    wire (${tier})`);
  const out = lines.map((line) => {
    for (const p of r.results) {
      if (line === `  reproduce ${checkCommand(r, p.property)}`) return `  reproduce ${wireCommand(r, args, p.property)}`;
    }
    return line;
  });
  const skipped = Object.entries(r.skipped);
  if (skipped.length > 0) {
    const at = out.findIndex((l) => l.startsWith('situations:'));
    out.splice(at + 1, 0, ...skipped.map(([fault, why]) => `skipped: ${fault} — ${why}`));
  }
  return out.join('\n');
}

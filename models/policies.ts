// The policy vocabulary of docs/design.md as the project imports it: the built-in knobs and types
// (knobs.ts, re-exported) and the open knobs — `server.reinit`, `client.reconnect` and
// `client.guards` — whose values a policy module may add (additions.ts): `knobValues` lists the
// built-ins followed by those, and `combination` orders guards by it.
import {
  CLIENT_KNOBS,
  type ClientOverrides,
  type Combination,
  DEFAULT_CLIENT,
  DEFAULT_SERVER,
  type Guard,
  SERVER_KNOBS,
  type ServerOverrides,
} from './knobs.ts';
import type { PolicyAdditions } from './additions.ts';

export * from './knobs.ts';

/** The open knobs and where their additions register. */
const OPEN_KNOBS: Record<string, 'reinit' | 'reconnect' | 'guards'> = {
  'server.reinit': 'reinit',
  'client.reconnect': 'reconnect',
  'client.guards': 'guards',
};

/** Every value of a knob: the built-ins, then those policy modules registered. */
export function knobValues(side: 'server' | 'client', knob: string, additions: PolicyAdditions): string[] {
  const table: Record<string, { values: readonly string[] }> = side === 'server' ? SERVER_KNOBS : CLIENT_KNOBS;
  const builtin = Object.hasOwn(table, knob) ? [...table[knob]!.values] : [];
  const open = OPEN_KNOBS[`${side}.${knob}`];
  return open ? [...builtin, ...additions[open].names()] : builtin;
}

/** What a value means, for `list` and the reports. */
export function describeValue(side: 'server' | 'client', knob: string, value: string, additions: PolicyAdditions): string {
  const table: Record<string, { describe: Record<string, string> }> = side === 'server' ? SERVER_KNOBS : CLIENT_KNOBS;
  const builtin = Object.hasOwn(table, knob) ? table[knob]!.describe[value] : undefined;
  if (builtin !== undefined) return builtin;
  const open = OPEN_KNOBS[`${side}.${knob}`];
  const def = open ? additions[open].get(value) : undefined;
  return def ? `${def.describe ?? '(no description)'} [from ${def.source}]` : '';
}

/** A full combination from partial overrides; unspecified knobs take their defaults. Guards are put
 *  in knob order, those `additions` registers included (a guard it does not know is dropped). */
export function combination(over: { server?: ServerOverrides; client?: ClientOverrides } = {}, additions: PolicyAdditions): Combination {
  const client = { ...DEFAULT_CLIENT, ...over.client };
  return {
    server: { ...DEFAULT_SERVER, ...over.server },
    client: { ...client, guards: normalizeGuards(client.guards, additions) },
  };
}

export function normalizeGuards(guards: readonly Guard[], additions: PolicyAdditions): Guard[] {
  return knobValues('client', 'guards', additions).filter((g) => guards.includes(g));
}

// A finding saved as its own JSON file: everything that replays it (combination, fault plan,
// workload, schedule, world options), how it was found (alphabet, seed, path), and what it is
// expected to do again (the violated properties, each call's outcome, the whole history). Read
// back strictly: a malformed, truncated or wrong-version file is refused with one line naming
// what is wrong.
import { HISTORY_VERSION, type HistoryEntry } from '../core/history.ts';
import type { Finding, SavedWorld } from '../compare/findings.ts';
import { TOOL } from '../core/tool.ts';
import type { Combination } from '../models/policies.ts';
import type { FaultPlan } from '../core/plan.ts';
import type { Workload } from '../core/workload.ts';
import type { Outcome } from '../properties/outcomes.ts';

export const COUNTEREXAMPLE_FORMAT = 'mcp-faultsim/counterexample';
export const COUNTEREXAMPLE_VERSION = 1;

export interface CounterexampleFile {
  format: typeof COUNTEREXAMPLE_FORMAT;
  version: number;
  tool: { name: string; version: string };
  historyVersion: number;
  id: string;
  /** The matrix cell it was found in, or null for `check --save`. */
  cell: string | null;
  kind: Finding['kind'];
  combination: Combination;
  alphabet: readonly string[];
  plan: FaultPlan;
  workload: Workload;
  schedule: number[];
  seed: number;
  path: string;
  runs: number;
  /** Policy modules that were loaded when it was found (replay needs the same ones). */
  policies: string[];
  /** The world options it was found with; replay runs under them. */
  world: SavedWorld;
  expected: {
    properties: { property: string; why: string }[];
    outcomes: { callId: number; outcome: Outcome }[];
    history: HistoryEntry[];
  };
}

export function counterexampleFile(f: Finding, policies: string[]): CounterexampleFile {
  return {
    format: COUNTEREXAMPLE_FORMAT,
    version: COUNTEREXAMPLE_VERSION,
    tool: TOOL,
    historyVersion: HISTORY_VERSION,
    id: f.id,
    cell: f.cellName || null,
    kind: f.kind,
    combination: f.combination,
    alphabet: f.alphabet,
    plan: f.plan,
    workload: f.workload,
    schedule: f.schedule,
    seed: f.seed,
    path: f.path,
    runs: f.runs,
    policies,
    world: f.world,
    expected: { properties: f.properties, outcomes: f.outcomes, history: f.history },
  };
}

/** Why a file cannot be read as a counterexample: one line. */
export class BadCounterexample extends Error {}

type Kind = 'string' | 'number' | 'boolean' | 'object' | 'array';

function kindOf(v: unknown): string {
  return Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v;
}

function need(o: Record<string, unknown>, key: string, kind: Kind, where: string): unknown {
  const v = o[key];
  if (kindOf(v) !== kind) throw new BadCounterexample(`${where}${key} should be ${kind === 'array' ? 'an' : 'a'} ${kind}, not ${v === undefined ? 'missing' : kindOf(v)}`);
  return v;
}

function each(o: Record<string, unknown>, key: string, where: string, check: (item: Record<string, unknown>, at: string) => void): void {
  (need(o, key, 'array', where) as unknown[]).forEach((item, i) => {
    const at = `${where}${key}[${i}]`;
    if (kindOf(item) !== 'object') throw new BadCounterexample(`${at} should be an object, not ${kindOf(item)}`);
    check(item as Record<string, unknown>, `${at}.`);
  });
}

/** Parse and check a counterexample file's text. Throws BadCounterexample. */
export function parseCounterexample(text: string): CounterexampleFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new BadCounterexample(`not valid JSON (${(e as Error).message.split('\n')[0]}); the file may be truncated`);
  }
  if (kindOf(raw) !== 'object') throw new BadCounterexample(`expected a JSON object, found ${kindOf(raw)}`);
  const o = raw as Record<string, unknown>;
  if (o.format !== COUNTEREXAMPLE_FORMAT) throw new BadCounterexample(`not a counterexample file (format is ${JSON.stringify(o.format ?? null)}, expected "${COUNTEREXAMPLE_FORMAT}")`);
  if (o.version !== COUNTEREXAMPLE_VERSION) {
    throw new BadCounterexample(`counterexample format version ${JSON.stringify(o.version ?? null)} is not supported (this is ${TOOL.name} ${TOOL.version}, which reads version ${COUNTEREXAMPLE_VERSION})`);
  }
  if (o.historyVersion !== HISTORY_VERSION) throw new BadCounterexample(`history version ${JSON.stringify(o.historyVersion ?? null)} is not supported (expected ${HISTORY_VERSION})`);
  for (const k of ['id', 'kind', 'path'] as const) need(o, k, 'string', '');
  if (o.kind !== 'violation' && o.kind !== 'policy-error') throw new BadCounterexample(`kind should be "violation" or "policy-error", not ${JSON.stringify(o.kind)}`);
  for (const k of ['seed', 'runs'] as const) need(o, k, 'number', '');
  const combination = need(o, 'combination', 'object', '') as Record<string, unknown>;
  const server = need(combination, 'server', 'object', 'combination.') as Record<string, unknown>;
  const client = need(combination, 'client', 'object', 'combination.') as Record<string, unknown>;
  for (const k of ['reinit', 'streaming', 'advertise']) need(server, k, 'string', 'combination.server.');
  for (const k of ['reconnect', 'accept', 'parser']) need(client, k, 'string', 'combination.client.');
  need(client, 'guards', 'array', 'combination.client.');
  need(o, 'alphabet', 'array', '');
  need(o, 'policies', 'array', '');
  each(o, 'plan', '', (f, at) => {
    need(f, 'fault', 'string', at);
    need(f, 'at', 'number', at);
  });
  each(o, 'workload', '', (s, at) => {
    need(s, 'method', 'string', at);
    need(s, 'progress', 'boolean', at);
    need(s, 'overlap', 'boolean', at);
  });
  need(o, 'schedule', 'array', '');
  const world = need(o, 'world', 'object', '') as Record<string, unknown>;
  for (const k of ['latencyMs', 'deadlineMs', 'stepBudget']) need(world, k, 'number', 'world.');
  const expected = need(o, 'expected', 'object', '') as Record<string, unknown>;
  each(expected, 'properties', 'expected.', (p, at) => {
    need(p, 'property', 'string', at);
    need(p, 'why', 'string', at);
  });
  need(expected, 'outcomes', 'array', 'expected.');
  each(expected, 'history', 'expected.', (e, at) => {
    need(e, 't', 'number', at);
    need(e, 'kind', 'string', at);
  });
  return o as unknown as CounterexampleFile;
}

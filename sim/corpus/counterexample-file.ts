// A finding saved as its own JSON file: everything that replays it (combination, fault plan,
// workload, schedule, world options), how it was found (alphabet, seed, path), and what it is
// expected to do again (the violated properties, each call's outcome, the whole history). Read
// back strictly (corpus/counterexample-schema.ts): a malformed, truncated or wrong-version file is
// refused with one line naming what is wrong.
import { HISTORY_VERSION, type HistoryEntry } from '../core/history.ts';
import type { Finding, SavedWorld } from '../compare/findings.ts';
import { TOOL } from '../core/tool.ts';
import type { Combination } from '../../models/policies.ts';
import type { FaultPlan } from '../core/plan.ts';
import type { Workload } from '../core/workload.ts';
import type { Outcome } from '../../properties/outcomes.ts';
import { parseWith } from '../core/schema-issue.ts';
import { counterexampleSchema } from './counterexample-schema.ts';

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

function kindOf(v: unknown): string {
  return Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v;
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
  if (o.format !== COUNTEREXAMPLE_FORMAT)
    throw new BadCounterexample(
      `not a counterexample file (format is ${JSON.stringify(o.format ?? null)}, expected "${COUNTEREXAMPLE_FORMAT}")`,
    );
  if (o.version !== COUNTEREXAMPLE_VERSION) {
    throw new BadCounterexample(
      `counterexample format version ${JSON.stringify(o.version ?? null)} is not supported (this is ${TOOL.name} ${TOOL.version}, which reads version ${COUNTEREXAMPLE_VERSION})`,
    );
  }
  if (o.historyVersion !== HISTORY_VERSION)
    throw new BadCounterexample(
      `history version ${JSON.stringify(o.historyVersion ?? null)} is not supported (expected ${HISTORY_VERSION})`,
    );
  const parsed = parseWith(counterexampleSchema, o);
  if (!parsed.ok) throw new BadCounterexample(parsed.message);
  // The file as written, not zod's copy: histories are compared as JSON, key order included. Only
  // its combination is zod's, knobs the file predates given their defaults (a 2025-11-25 file).
  return { ...o, combination: parsed.value.combination } as unknown as CounterexampleFile;
}

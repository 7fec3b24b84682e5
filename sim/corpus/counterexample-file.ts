// A finding saved as its own JSON file: everything that replays it (combination, fault plan,
// workload, schedule, world options), how it was found (alphabet, seed, path), and what it is
// expected to do again (the violated properties, each call's outcome, the whole history). Read
// back strictly (corpus/counterexample-parse.ts): a malformed, truncated or wrong-version file is
// refused with one line naming what is wrong.
import { HISTORY_VERSION, type HistoryEntry } from '../core/history.ts';
import type { Finding, SavedWorld } from '../compare/findings.ts';
import { TOOL } from '../core/tool.ts';
import type { Combination } from '../../models/policies.ts';
import type { FaultPlan } from '../core/plan.ts';
import type { Workload } from '../core/workload.ts';
import type { Outcome } from '../../properties/outcomes.ts';

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

// A cell's findings: its shrunk counterexamples, one per distinct input (properties violated by the
// same plan, workload and schedule share one finding), and its policy error, each with the world
// options and the history of the run it was found in, so that reports can show it step by step
// and replay can check it reproduces (under those options, not the defaults).
import type { HistoryEntry } from '../core/history.ts';
import type { CellResult } from './cell-result.ts';
import type { FaultPlan } from '../core/plan.ts';
import type { Workload } from '../core/workload.ts';
import type { Outcome } from '../../properties/outcomes.ts';
import { runWorld, type WorldOptions } from '../world/world.ts';
import type { Combination } from '../../models/policies.ts';

/** World options as a finding keeps them: without the engine (engines give identical histories)
 *  or the additions (the finding's file names its policy modules instead). */
export type SavedWorld = Omit<WorldOptions, 'engine' | 'additions'>;

export function savedWorld(world: WorldOptions): SavedWorld {
  const { engine: _engine, additions: _additions, ...saved } = world;
  return saved;
}

export interface FindingProperty {
  property: string;
  why: string;
  /** No plan with fewer faults violates the property on this workload (search/certify.ts). */
  minimal?: boolean;
  /** When not minimal: a violating plan with fewer faults. */
  shorter?: { faults: FaultPlan; workload: Workload } | null;
}

export interface Finding {
  /** Unique in a report, stable across shards: `<cell id>--<first property>`. */
  id: string;
  cell: string;
  cellIndex: number;
  cellName: string;
  kind: 'violation' | 'policy-error';
  /** Each property this input violates, with why (and, for a random counterexample, whether an
   *  exhaustive search certified it minimal); for a policy error, `policy-error` and the message. */
  properties: FindingProperty[];
  combination: Combination;
  /** The alphabet the plan was drawn from. */
  alphabet: readonly string[];
  plan: FaultPlan;
  workload: Workload;
  schedule: number[];
  seed: number;
  path: string;
  runs: number;
  outcomes: { callId: number; outcome: Outcome }[];
  /** How many inputs fast-check drew before the failure, and how many shrink steps it took (null: not shrunk). */
  runsToFailure: number | null;
  shrinks: number | null;
  /** The model world's options it was found (and replays) with. */
  world: SavedWorld;
  history: HistoryEntry[];
}

/** How many recomputed histories are held at once, the last ones run (first in, first out): a report
 *  reads one finding's history several times in a row, and a few findings near each other. */
export const HELD_HISTORIES = 16;
/** The findings whose recomputed history is held, oldest first. */
const held: { history: HistoryEntry[] | null }[] = [];

/**
 * A model-world finding's history, run again from its input when it is read rather than kept: a full
 * matrix's thousands of findings held every history until the reports were written. The last
 * HELD_HISTORIES run are held (a report reads one several times in a row). Not a WeakRef: a WeakRef's
 * target lives until the current job ends, and the reports are written in one synchronous job, so every
 * history read while writing them stayed alive to its end. The same input under the same options is
 * the same run, so every read sees the same history.
 */
export function recomputedHistory<T extends object>(finding: T, run: () => HistoryEntry[]): T {
  const slot: { history: HistoryEntry[] | null } = { history: null };
  return Object.defineProperty(finding, 'history', {
    enumerable: true,
    configurable: true,
    get: () => {
      if (slot.history) return slot.history;
      slot.history = run();
      held.push(slot);
      if (held.length > HELD_HISTORIES) held.shift()!.history = null;
      return slot.history;
    },
  });
}

/** `target` with `source`'s history, last, as `source` has it: a recomputed one stays recomputed. */
export function withHistoryOf<T extends object>(target: T, source: Finding): T & { history: HistoryEntry[] } {
  return Object.defineProperty(target, 'history', Object.getOwnPropertyDescriptor(source, 'history')!) as T & { history: HistoryEntry[] };
}

/** The findings of a cell whose runs used `world` (the options its check was given). */
export function findingsOf(cell: CellResult, world: WorldOptions): Finding[] {
  const saved = savedWorld(world);
  const base = {
    cell: cell.id,
    cellIndex: cell.index,
    cellName: cell.name,
    combination: cell.combination,
    alphabet: cell.faults,
    runs: cell.runs,
    world: saved,
  };
  if (cell.policyError) {
    const e = cell.policyError;
    return [
      {
        ...base,
        id: `${cell.id}--policy-error`,
        kind: 'policy-error',
        properties: [{ property: 'policy-error', why: `${e.policy}: ${e.message}` }],
        plan: e.faults,
        workload: e.workload,
        schedule: e.schedule,
        seed: e.seed,
        path: e.path,
        outcomes: [],
        runsToFailure: null,
        shrinks: null,
        history: e.history,
      },
    ];
  }
  const groups = new Map<string, Finding>();
  for (const r of cell.results) {
    const ce = r.counterexample;
    if (!ce) continue;
    const violated: FindingProperty = {
      property: r.property,
      why: ce.why,
      ...(r.minimal === undefined ? {} : { minimal: r.minimal, shorter: r.shorter ?? null }),
    };
    const key = JSON.stringify([ce.faults, ce.workload, ce.schedule]);
    const seen = groups.get(key);
    if (seen) {
      seen.properties.push(violated);
      continue;
    }
    const finding: Finding = {
      ...base,
      id: `${cell.id}--${r.property}`,
      kind: 'violation',
      properties: [violated],
      plan: ce.faults,
      workload: ce.workload,
      schedule: ce.schedule,
      seed: ce.seed,
      path: ce.path,
      outcomes: ce.outcomes,
      runsToFailure: ce.runsToFailure,
      shrinks: ce.shrinks,
      history: ce.history ?? [],
    };
    // A model-world counterexample is replayable: the same input under the same options is its run.
    const input = { combination: cell.combination, workload: ce.workload, plan: ce.faults, schedule: ce.schedule };
    groups.set(key, ce.history ? finding : recomputedHistory(finding, () => runWorld(input, world).entries));
  }
  return [...groups.values()];
}

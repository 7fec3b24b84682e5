// Vacuity guards: how often each fault actually fired and acted, how often a reconnect, a
// re-initialize and a transport fallback happened, and which machine states and transitions a run
// reached. A property that holds where its situation was never reached is reported as vacuous.
import type { History, HistoryEntry } from '../sim/core/history.ts';
import { MACHINES, type ReachLike } from '../sim/core/reach.ts';

export interface RunStats {
  runs: number;
  /** Faults whose firing point the run reached, by name. */
  faultsFired: Record<string, number>;
  /** Of those, the ones that changed something (a header that was there, a stream to cut…). */
  faultsApplied: Record<string, number>;
  reconnects: number;
  reinitializes: number;
  fallbacks: number;
  /** `client:ready`, `server:serving`…: states entered, counted over runs. */
  states: Record<string, number>;
  /** `client:ready→reconnecting.initializing`…: transitions taken. */
  transitions: Record<string, number>;
  /** Per machine, in how many runs each state and each named transition (the history's `Reach`,
   *  core/reach.ts) was reached: counts, because the JSON report prints them. */
  coverage: { client: ReachCounts; server: ReachCounts };
}

/** A Reach counted over runs (the only place coverage becomes per-name counts). */
export interface ReachCounts {
  states: Record<string, number>;
  transitions: Record<string, number>;
}

const emptyReach = (): ReachCounts => ({ states: {}, transitions: {} });

export function emptyStats(): RunStats {
  return {
    runs: 0,
    faultsFired: {},
    faultsApplied: {},
    reconnects: 0,
    reinitializes: 0,
    fallbacks: 0,
    states: {},
    transitions: {},
    coverage: { client: emptyReach(), server: emptyReach() },
  };
}

const bump = (m: Record<string, number>, k: string, n = 1) => {
  m[k] = (m[k] ?? 0) + n;
};

/** One run's stats as the run goes, entry by entry, with no history kept; `statsOf` is this fold
 *  over a whole history. `finish` adds the machines' coverage, read once the run is over. */
// The keys a state entry counts under, made once per name: every run enters the same few states, and
// a key built anew each time is a new string to hash on every lookup.
const stateKeys = { client: new Map<string, string>(), server: new Map<string, string>() };
const transitionKeys = { client: new Map<string, Map<string, string>>(), server: new Map<string, Map<string, string>>() };

function stateKey(machine: 'client' | 'server', to: string): string {
  let k = stateKeys[machine].get(to);
  if (k === undefined) stateKeys[machine].set(to, (k = `${machine}:${to}`));
  return k;
}

function transitionKey(machine: 'client' | 'server', from: string, to: string): string {
  let byTo = transitionKeys[machine].get(from);
  if (!byTo) transitionKeys[machine].set(from, (byTo = new Map()));
  let t = byTo.get(to);
  if (t === undefined) byTo.set(to, (t = `${machine}:${from}→${to}`));
  return t;
}

/** The entry kinds StatsFold reads. */
export const STATS_READ: readonly HistoryEntry['kind'][] = ['fault', 'client', 'server', 'state'];

export class StatsFold {
  private readonly s = emptyStats();

  constructor() {
    this.s.runs = 1;
    bump(this.s.states, 'client:idle');
    bump(this.s.states, 'server:empty');
  }

  push(e: HistoryEntry): void {
    const s = this.s;
    if (e.kind === 'fault') {
      bump(s.faultsFired, e.fault);
      if (e.applied) bump(s.faultsApplied, e.fault);
    } else if (e.kind === 'client' && e.note === 'reconnect') s.reconnects++;
    else if (e.kind === 'server' && (e.note === 'reinitialized' || e.note === 'reinit-rejected')) s.reinitializes++;
    else if (e.kind === 'client' && e.note === 'fallback') s.fallbacks++;
    else if (e.kind === 'state') {
      bump(s.states, stateKey(e.machine, e.to));
      bump(s.transitions, transitionKey(e.machine, e.from, e.to));
    }
  }

  finish(coverage: ReachLike | undefined): RunStats {
    const s = this.s;
    if (!coverage) return s;
    // Names in a reach are distinct and the run's coverage counts start empty: each is set to 1.
    for (const m of MACHINES) {
      const into = s.coverage[m];
      for (const state of coverage[m].states) into.states[state] = 1;
      for (const t of coverage[m].transitions) into.transitions[t] = 1;
    }
    return s;
  }
}

export function statsOf(h: History): RunStats {
  const fold = new StatsFold();
  for (const e of h.entries) fold.push(e);
  return fold.finish(h.coverage);
}

/** Add b into a. Counts become "in how many runs" for the boolean-ish ones when `perRun` is set. */
export function addStats(a: RunStats, b: RunStats): RunStats {
  a.runs += b.runs;
  addCounts(a.faultsFired, b.faultsFired);
  addCounts(a.faultsApplied, b.faultsApplied);
  a.reconnects += b.reconnects;
  a.reinitializes += b.reinitializes;
  a.fallbacks += b.fallbacks;
  addCounts(a.states, b.states);
  addCounts(a.transitions, b.transitions);
  for (const m of MACHINES) {
    addCounts(a.coverage[m].states, b.coverage[m].states);
    addCounts(a.coverage[m].transitions, b.coverage[m].transitions);
  }
  return a;
}

/** Each of `from`'s counts added into `into`, in `from`'s key order (what a loop over its entries
 *  does, without the array of pairs per map per run). */
function addCounts(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const k in from) into[k] = (into[k] ?? 0) + from[k]!;
}

/** The same stats with every map's keys sorted, so that equal stats serialize equally. */
export function sortedStats(s: RunStats): RunStats {
  const sort = (m: Record<string, number>) => Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const reach = (r: ReachCounts) => ({ states: sort(r.states), transitions: sort(r.transitions) });
  return {
    ...s,
    faultsFired: sort(s.faultsFired),
    faultsApplied: sort(s.faultsApplied),
    states: sort(s.states),
    transitions: sort(s.transitions),
    coverage: { client: reach(s.coverage.client), server: reach(s.coverage.server) },
  };
}

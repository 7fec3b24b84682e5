// Vacuity guards: how often each fault actually fired and acted, how often a reconnect, a
// re-initialize and a transport fallback happened, and which machine states and transitions a run
// reached. A property that holds where its situation was never reached is reported as vacuous.
import type { History, HistoryEntry } from '../sim/core/history.ts';
import type { ReachLike } from '../sim/core/reach.ts';

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

/** Where a count goes in RunStats: a map of its own, or a machine's coverage map. */
type Place =
  | 'faultsFired'
  | 'faultsApplied'
  | 'states'
  | 'transitions'
  | 'client.states'
  | 'client.transitions'
  | 'server.states'
  | 'server.transitions';

// Every name a run's stats count under, numbered once per thread in the order first counted: a run's
// counts are a list of these numbers, and only a sample's total becomes maps of names (`StatsTotal`).
// A map per run, filled key by key and then added key by key into the sample's, was 2.1 s of the full
// matrix's 75 s of CPU in its profile (StatsFold's `push` and `finish`, `addCounts`), and garbage. The
// default matrix's sampled runs, warm (`npm run bench:profile -- cells 5`, passes 3-5, 6 processes
// alternating with the commit before): 415 → 390 ms a pass, medians of 18.
const placeOf: Place[] = [];
const nameOf: string[] = [];
const numbers = new Map<Place, Map<string, number>>();

function numberOf(place: Place, name: string): number {
  let byName = numbers.get(place);
  if (byName === undefined) numbers.set(place, (byName = new Map()));
  let n = byName.get(name);
  if (n === undefined) {
    byName.set(name, (n = nameOf.length));
    placeOf.push(place);
    nameOf.push(name);
  }
  return n;
}

// A state entry's two counts, by machine and names: every run enters the same few states.
const stateNumbers = { client: new Map<string, number>(), server: new Map<string, number>() };
const transitionNumbers = { client: new Map<string, Map<string, number>>(), server: new Map<string, Map<string, number>>() };

function stateNumber(machine: 'client' | 'server', to: string): number {
  let n = stateNumbers[machine].get(to);
  if (n === undefined) stateNumbers[machine].set(to, (n = numberOf('states', `${machine}:${to}`)));
  return n;
}

function transitionNumber(machine: 'client' | 'server', from: string, to: string): number {
  let byTo = transitionNumbers[machine].get(from);
  if (!byTo) transitionNumbers[machine].set(from, (byTo = new Map()));
  let n = byTo.get(to);
  if (n === undefined) byTo.set(to, (n = numberOf('transitions', `${machine}:${from}→${to}`)));
  return n;
}

/** One run's stats as the sample's total takes them: the three counters, each other count as the
 *  number of its name (one per count of one), and the machines' reach, each of whose names counts once. */
export interface RunCounts {
  /** 1; 0 for a run whose stats were not counted (`NO_COUNTS`). */
  runs: number;
  reconnects: number;
  reinitializes: number;
  fallbacks: number;
  counted: number[];
  reach: ReachLike | undefined;
}

/** A run whose stats were not counted: it adds nothing to a total. */
export const NO_COUNTS: RunCounts = Object.freeze({
  runs: 0,
  reconnects: 0,
  reinitializes: 0,
  fallbacks: 0,
  counted: [],
  reach: undefined,
});

/** The entry kinds StatsFold reads. */
export const STATS_READ: readonly HistoryEntry['kind'][] = ['fault', 'client', 'server', 'state'];

/** One run's stats as the run goes, entry by entry, with no history kept; `countsOf` is this fold
 *  over a whole history. `finish` adds the machines' reach, read once the run is over. */
export class StatsFold {
  private readonly c: RunCounts = { runs: 1, reconnects: 0, reinitializes: 0, fallbacks: 0, counted: [], reach: undefined };

  constructor() {
    this.c.counted.push(numberOf('states', 'client:idle'), numberOf('states', 'server:empty'));
  }

  push(e: HistoryEntry): void {
    const c = this.c;
    if (e.kind === 'fault') {
      c.counted.push(numberOf('faultsFired', e.fault));
      if (e.applied) c.counted.push(numberOf('faultsApplied', e.fault));
    } else if (e.kind === 'client' && e.note === 'reconnect') c.reconnects++;
    else if (e.kind === 'server' && (e.note === 'reinitialized' || e.note === 'reinit-rejected')) c.reinitializes++;
    else if (e.kind === 'client' && e.note === 'fallback') c.fallbacks++;
    else if (e.kind === 'state') c.counted.push(stateNumber(e.machine, e.to), transitionNumber(e.machine, e.from, e.to));
  }

  finish(reach: ReachLike | undefined): RunCounts {
    this.c.reach = reach;
    return this.c;
  }
}

export function countsOf(h: History): RunCounts {
  const fold = new StatsFold();
  for (const e of h.entries) fold.push(e);
  return fold.finish(h.coverage);
}

/** The stats of runs, added run by run (a sample's: search/random/tally.ts). */
export class StatsTotal {
  private runs = 0;
  private reconnects = 0;
  private reinitializes = 0;
  private fallbacks = 0;
  /** By name number. */
  private readonly counts: number[] = [];

  add(c: RunCounts): void {
    this.runs += c.runs;
    this.reconnects += c.reconnects;
    this.reinitializes += c.reinitializes;
    this.fallbacks += c.fallbacks;
    for (let i = 0; i < c.counted.length; i++) this.bump(c.counted[i]!);
    if (c.reach === undefined) return;
    // Names in a reach are distinct: each counts one run.
    for (const state of c.reach.client.states) this.bump(numberOf('client.states', state));
    for (const t of c.reach.client.transitions) this.bump(numberOf('client.transitions', t));
    for (const state of c.reach.server.states) this.bump(numberOf('server.states', state));
    for (const t of c.reach.server.transitions) this.bump(numberOf('server.transitions', t));
  }

  private bump(n: number): void {
    const counts = this.counts;
    while (counts.length <= n) counts.push(0);
    counts[n]!++;
  }

  /** The total as maps of names, each in the order its names were first counted in this thread. */
  toStats(): RunStats {
    const s = emptyStats();
    s.runs = this.runs;
    s.reconnects = this.reconnects;
    s.reinitializes = this.reinitializes;
    s.fallbacks = this.fallbacks;
    const maps: Record<Place, Record<string, number>> = {
      faultsFired: s.faultsFired,
      faultsApplied: s.faultsApplied,
      states: s.states,
      transitions: s.transitions,
      'client.states': s.coverage.client.states,
      'client.transitions': s.coverage.client.transitions,
      'server.states': s.coverage.server.states,
      'server.transitions': s.coverage.server.transitions,
    };
    for (let n = 0; n < this.counts.length; n++) if (this.counts[n]! > 0) maps[placeOf[n]!][nameOf[n]!] = this.counts[n]!;
    return s;
  }
}

/** The stats of one run's counts (what a total of that run alone says). */
export function statsOfCounts(c: RunCounts): RunStats {
  const total = new StatsTotal();
  total.add(c);
  return total.toStats();
}

/** The stats of one recorded run. */
export function statsOf(h: History): RunStats {
  return statsOfCounts(countsOf(h));
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

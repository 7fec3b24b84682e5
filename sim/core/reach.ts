// Coverage as one type from the world to the reports: per machine, the set of states and the set of
// transitions (names: world/engine/transitions.ts) that a run, a sample of runs or an exploration
// reached, and their union. Only where a report prints coverage does it become counts: against
// the statechart's definition (world/coverage.ts, `MachineCoverage`), or per run (properties/stats.ts).
export interface MachineReach {
  states: Set<string>;
  transitions: Set<string>;
}

export interface Reach {
  client: MachineReach;
  server: MachineReach;
}

/** What `union` reads: a Reach, or the same lists as plain arrays (a job result from a worker). */
export interface ReachLike {
  client: { states: Iterable<string>; transitions: Iterable<string> };
  server: { states: Iterable<string>; transitions: Iterable<string> };
}

export const MACHINES = ['client', 'server'] as const;

export function emptyReach(): Reach {
  return { client: { states: new Set(), transitions: new Set() }, server: { states: new Set(), transitions: new Set() } };
}

/** Add each of `from` into `into` (mutated and returned). */
export function addReach(into: Reach, ...from: readonly ReachLike[]): Reach {
  for (const r of from) {
    for (const m of MACHINES) {
      for (const s of r[m].states) into[m].states.add(s);
      for (const t of r[m].transitions) into[m].transitions.add(t);
    }
  }
  return into;
}

/** A new Reach holding everything any of them reached. */
export function union(...reaches: readonly ReachLike[]): Reach {
  return addReach(emptyReach(), ...reaches);
}

/** Per machine, how much of its definition was reached, with what was not (world/coverage.ts makes it). */
export interface MachineCoverage {
  machine: 'client' | 'server';
  states: CoverageTally;
  transitions: CoverageTally;
}

export interface CoverageTally {
  reached: number;
  total: number;
  unreached: string[];
}

/** Coverage reports of several runs (cells) as one: a name is unreached only if it is in every one. */
export function unionCoverage(reports: readonly (readonly MachineCoverage[])[]): MachineCoverage[] {
  const present = reports.filter((r) => r.length > 0);
  const first = present[0];
  if (!first) return [];
  return first.map((m) => {
    const mine = present.map((r) => r.find((x) => x.machine === m.machine)!);
    const tally = (part: 'states' | 'transitions'): CoverageTally => {
      const unreached = m[part].unreached.filter((name) => mine.every((x) => x[part].unreached.includes(name)));
      return { reached: m[part].total - unreached.length, total: m[part].total, unreached };
    };
    return { machine: m.machine, states: tally('states'), transitions: tally('transitions') };
  });
}

/**
 * One object for each distinct coverage report: a cell's result that crosses from a cell thread is
 * a structured clone, every name in it a string of its own, and the full matrix's 1,920 cells hold
 * 17 distinct reports (`compare --matrix full`). Shared, that comparison's peak RSS went 457 and 481
 * → 435 and 447 MB (docs/performance.md). Reports are read, never changed, after they are made.
 */
export function coverageSharer(): (coverage: MachineCoverage[]) => MachineCoverage[] {
  const seen = new Map<string, MachineCoverage[]>();
  return (coverage) => {
    const key = JSON.stringify(coverage);
    const kept = seen.get(key);
    if (kept) return kept;
    seen.set(key, coverage);
    return coverage;
  };
}

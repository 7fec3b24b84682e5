// A sample's vacuity stats are totalled from each run's counts (properties/stats.ts `StatsTotal`),
// names kept as numbers until the end. Held here: the total of many runs, of every seed cell, is each
// run's own stats (`statsOf` of its history) added name by name, whatever order the names were first
// counted in; a run whose stats were not counted adds nothing.
import { describe, expect, it } from 'vitest';
import { NO_COUNTS, StatsTotal, countsOf, sortedStats, statsOf, type RunStats } from '../../properties/stats.ts';
import { SEED_CELLS } from '../../sim/core/cells.ts';
import { inputs } from '../../sim/search/random/arbitraries.ts';
import { sampleLazily } from '../../sim/search/random/input-stream.ts';
import { DEFAULT_WORLD, runWorld } from '../../sim/world/world.ts';

/** `b` added into `a`, map by map (what the total must equal). */
function added(a: RunStats, b: RunStats): RunStats {
  const into = (x: Record<string, number>, y: Record<string, number>) => {
    for (const [k, v] of Object.entries(y)) x[k] = (x[k] ?? 0) + v;
  };
  a.runs += b.runs;
  a.reconnects += b.reconnects;
  a.reinitializes += b.reinitializes;
  a.fallbacks += b.fallbacks;
  into(a.faultsFired, b.faultsFired);
  into(a.faultsApplied, b.faultsApplied);
  into(a.states, b.states);
  into(a.transitions, b.transitions);
  for (const m of ['client', 'server'] as const) {
    into(a.coverage[m].states, b.coverage[m].states);
    into(a.coverage[m].transitions, b.coverage[m].transitions);
  }
  return a;
}

describe('a sample’s stats total', () => {
  it('is every run’s stats added name by name, on every seed cell', () => {
    let faultsApplied = 0;
    for (const cell of SEED_CELLS) {
      const total = new StatsTotal();
      let expected: RunStats | null = null;
      for (const [plan, workload, schedule] of sampleLazily(inputs({}), 29, 40)) {
        const history = runWorld({ combination: cell.combination, plan, workload, schedule }, DEFAULT_WORLD);
        total.add(countsOf(history));
        total.add(NO_COUNTS);
        const one = statsOf(history);
        expected = expected === null ? one : added(expected, one);
      }
      const got = total.toStats();
      expect(sortedStats(got)).toEqual(sortedStats(expected!));
      expect(JSON.stringify(sortedStats(got))).toBe(JSON.stringify(sortedStats(expected!)));
      expect(got.runs).toBe(40);
      faultsApplied += Object.keys(got.faultsApplied).length;
    }
    // The sample reached faults that acted.
    expect(faultsApplied).toBeGreaterThan(0);
  });
});

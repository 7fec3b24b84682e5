// Reused runs change nothing (compare/mitigation-memo.ts, search/random/world-runner.ts): the finder's
// searches with one memo for the comparison (an earlier search's runs and the cells' runs answer
// later ones) give the marks each search gives alone. And reuse is reached: most runs are not run again.
import { describe, expect, it } from 'vitest';
import { checkCell, type RunnerResult } from '../../../sim/compare/compare.ts';
import { buildMatrix } from '../../../sim/compare/matrix.ts';
import { finderRunCounts, rememberRuns, runSearch, searchedCombination } from '../../../sim/compare/mitigation-runs.ts';
import { MITIGATION_PROPERTIES, neighbours } from '../../../sim/compare/mitigations.ts';
import { PROPERTIES } from '../../../properties/properties.ts';

const RUNS = 40;
const finder = PROPERTIES.filter((p) => MITIGATION_PROPERTIES.includes(p.name));
const cells = buildMatrix('seeds', { server: {}, client: {} });
/** The seed-000 cells under the seed alphabet: one shape, one knob or two apart. */
const seed000 = cells.filter((c) => c.faults.join() === cells[0]!.faults.join() && c.name.startsWith('seed 000')).slice(0, 6);

describe("the finder's memo", () => {
  it('gives every search the marks it gives alone', () => {
    expect(seed000.length).toBe(6);
    const where = { faults: seed000[0]!.faults, shape: seed000[0]!.shape };
    const shared = { seed: 1, runs: RUNS, properties: finder, ...where, judges: new Map(), draws: new Map() };
    // The cells' runs first, as compare.ts offers them.
    for (const cell of seed000) {
      const r = checkCell(cell, { seed: 1, runs: RUNS, properties: PROPERTIES }) as RunnerResult;
      rememberRuns(cell.combination, shared, r.sampled!, r.sampledReads!);
    }
    const searched = new Map<string, ReturnType<typeof searchedCombination>>();
    for (const cell of seed000.slice(0, 2))
      for (const n of neighbours(cell.combination)) {
        const c = searchedCombination(n.combination, cell.shape);
        searched.set(JSON.stringify(c), c);
      }
    const before = { ...finderRunCounts };
    for (const c of searched.values()) {
      const alone = runSearch(c, { seed: 1, runs: RUNS, properties: finder, ...where });
      expect(runSearch(c, shared)).toEqual(alone);
    }
    // Each search ran twice (alone: no memo shared), so half the asks are the shared ones.
    const asked = (finderRunCounts.asked - before.asked) / 2;
    const judged = finderRunCounts.judged - before.judged - asked; // the searches alone judged every run
    expect(searched.size).toBeGreaterThan(25);
    expect(judged).toBeGreaterThan(0); // some runs read a knob their neighbours set otherwise
  });
});

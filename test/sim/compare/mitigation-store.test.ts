// The finder's runs through the run store (compare/mitigation-runs.ts `markFor`): its searches, with the
// cells' runs and earlier searches' runs in the store, give the marks each gives with the store off;
// and the store is reached (some marks come from it, without a run).
import { afterEach, describe, expect, it } from 'vitest';
import { checkCell, type RunnerResult } from '../../../sim/compare/compare.ts';
import { buildMatrix } from '../../../sim/compare/matrix.ts';
import { rememberRuns, runSearch, searchedCombination } from '../../../sim/compare/mitigation-runs.ts';
import { MITIGATION_PROPERTIES, neighbours } from '../../../sim/compare/mitigations.ts';
import { runStore } from '../../../sim/search/run-store.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';
import { runConfig } from '../../../sim/plugins/run-config.ts';

const RUNS = 40;
const finder = runConfig({ seed: 1, runs: RUNS, properties: PROPERTIES.filter((p) => MITIGATION_PROPERTIES.includes(p.name)) });
const cells = buildMatrix('records', { server: {}, client: {} });
/** The record-000 cells under the record alphabet: one shape, one knob or two apart. */
const seed000 = cells.filter((c) => c.faults.join() === cells[0]!.faults.join() && c.name.startsWith('record 000')).slice(0, 6);

afterEach(() => {
  runStore.enabled = true;
});

describe("the finder's searches through the run store", () => {
  it('give every search the marks it gives with the store off', () => {
    expect(seed000.length).toBe(6);
    const where = { faults: seed000[0]!.faults, shape: seed000[0]!.shape };
    const searched = new Map<string, ReturnType<typeof searchedCombination>>();
    for (const cell of seed000.slice(0, 2))
      for (const n of neighbours(cell.combination, NO_ADDITIONS)) {
        const c = searchedCombination(n.combination, cell.shape);
        searched.set(JSON.stringify(c), c);
      }
    expect(searched.size).toBeGreaterThan(25);

    runStore.enabled = false;
    const alone = [...searched.values()].map((c) => runSearch(c, { config: finder, ...where }));

    runStore.enabled = true;
    runStore.clear();
    const counts = { asked: 0, judged: 0, recorded: 0 };
    const shared = { config: finder, ...where, judges: new Map(), draws: new Map(), counts };
    // The cells' runs first, as compare.ts offers them.
    for (const cell of seed000) {
      const r = checkCell(cell, runConfig({ seed: 1, runs: RUNS, properties: PROPERTIES })) as RunnerResult;
      rememberRuns(cell.combination, shared, r.sampled!, r.sampledReads!);
    }
    expect([...searched.values()].map((c) => runSearch(c, shared))).toEqual(alone);
    // Reached: the store marked some runs without a run, and some runs read a knob their neighbours set otherwise.
    expect(counts.asked).toBe(searched.size * RUNS);
    expect(counts.judged).toBeGreaterThan(0);
    expect(counts.judged).toBeLessThan(counts.asked);
  });
});

// The run store (search/run-store.ts) is speed only: the same comparisons give the same results with
// the store on and off — every cell's verdicts, counterexamples, certificates and stats, every
// finding's cause and mitigations (the finder's replays and searches) — over random combinations,
// each beside combinations one or two knobs away (the runs the store shares), random alphabets and
// seeds. And the store is used at all: a check that has it runs fewer runs than one that does not.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { FAULT_VOCABULARY } from '../../../models/faults.ts';
import { CLIENT_KNOBS, type Guard } from '../../../models/policies.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { ALPHABET_000, VULNERABLE_000 } from '../../../sim/core/cells.ts';
import { randomCheck, type CheckInput } from '../../../sim/search/random/check-runner.ts';
import { worldRunner } from '../../../sim/search/random/check.ts';
import { RunStore, runStore } from '../../../sim/search/run-store.ts';
import { ALL_KNOBS, differing, KNOBS, knobValues } from '../../../sim/world/knob-reads.ts';
import { anyCombination, changed } from '../../fixtures/combinations.ts';
import { cellsOf, compareCells } from '../../fixtures/small-comparison.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';

const BOUNDS = { ...runStore.bounds };
afterEach(() => {
  runStore.enabled = true;
  runStore.packs = true;
  runStore.bounds = { ...BOUNDS };
});

const knobChange = fc.record({
  knob: fc.nat(KNOBS.length - 1),
  pick: fc.nat(4),
  guards: fc.subarray([...CLIENT_KNOBS.guards.values] as Guard[]),
});

describe('the run store', () => {
  it('changes no result of a comparison: the same with the store on and off', async () => {
    let mitigated = 0;
    let counterexamples = 0;
    let stored = 0;
    await fc.assert(
      fc.asyncProperty(
        anyCombination,
        fc.array(knobChange, { minLength: 1, maxLength: 3 }),
        fc.subarray([...FAULT_VOCABULARY], { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 1000 }),
        async (c, changes, faults, seed) => {
          // The combination, then each change applied to the one before: one knob apart, and more.
          const combinations = [c];
          for (const { knob, pick, guards } of changes) combinations.push(changed(combinations.at(-1)!, knob, pick, guards));
          const cells = cellsOf(combinations, faults);
          runStore.clear();
          runStore.enabled = true;
          const on = await compareCells(cells, seed, 30);
          stored += runStore.size;
          runStore.enabled = false;
          const off = await compareCells(cells, seed, 30);
          expect(on).toEqual(off);
          mitigated += on.findings.filter((f) => f.mitigations?.length).length;
          counterexamples += on.cells.flatMap((cell) => cell.results).filter((r) => r.counterexample).length;
        },
      ),
      { numRuns: 12, seed: 28 },
    );
    // Reached: shrunk counterexamples and the finder's mitigations, with runs in the store.
    expect(counterexamples).toBeGreaterThan(5);
    expect(mitigated).toBeGreaterThan(3);
    expect(stored).toBeGreaterThan(100);
  }, 120_000);

  it('changes no result when a small bound makes it start again mid-comparison', async () => {
    const combinations = [VULNERABLE_000];
    for (const knob of [0, 3, 5]) combinations.push(changed(combinations.at(-1)!, knob, 1, []));
    const cells = cellsOf(combinations, ALPHABET_000);
    runStore.enabled = false;
    const off = await compareCells(cells, 7, 30);
    runStore.enabled = true;
    runStore.clear();
    runStore.bounds = { summaries: 40 };
    const started = runStore.generation;
    const bounded = await compareCells(cells, 7, 30);
    expect(bounded).toEqual(off);
    expect(runStore.generation - started).toBeGreaterThan(3); // reached: it started again, often
    expect(bounded.cells.flatMap((c) => c.results).some((r) => r.counterexample)).toBe(true);
  }, 60_000);

  it('finds a run under another combination exactly when the two agree on the knobs it read, by packed ids or string-keyed ones', () => {
    const seen = { found: 0, missed: 0, packed: 0, keyed: 0 };
    fc.assert(
      fc.property(
        anyCombination,
        fc.array(knobChange, { maxLength: 3 }),
        fc.nat(ALL_KNOBS),
        fc.boolean(),
        fc.nat(ALL_KNOBS),
        (a, changes, mask, packs, crowded) => {
          const store = new RunStore();
          store.packs = packs;
          // Knobs whose values were first seen among forty others: their codes are past their fields,
          // and a mask with one of them takes the string-keyed ids.
          for (let n = 0; n < 40; n++) store.codesOf(knobValues(a).map((v, i) => ((crowded >> i) & 1 ? `crowd-${n}` : v)));
          let b = a;
          for (const { knob, pick, guards } of changes) b = changed(b, knob, pick, guards);
          store.scope(a, DEFAULT_WORLD)!.add('the input', mask, { judged: 1, violated: 0 });
          const agree = (differing(knobValues(a), knobValues(b)) & mask) === 0;
          expect(store.scope(b, DEFAULT_WORLD)!.find('the input') !== undefined).toBe(agree);
          seen[agree ? 'found' : 'missed']++;
          seen[packs && (mask & crowded) === 0 ? 'packed' : 'keyed']++;
        },
      ),
      { numRuns: 400 },
    );
    // Reached: runs found and not, each way of telling values apart.
    for (const n of Object.values(seen)) expect(n).toBeGreaterThan(20);
  });

  it('changes no result when every value id is the string-keyed one', async () => {
    const combinations = [VULNERABLE_000];
    for (const knob of [1, 4, 8]) combinations.push(changed(combinations.at(-1)!, knob, 1, []));
    const cells = cellsOf(combinations, ALPHABET_000);
    runStore.clear();
    runStore.packs = false;
    const keyed = await compareCells(cells, 11, 30);
    runStore.clear();
    runStore.packs = true;
    const packed = await compareCells(cells, 11, 30);
    expect(packed).toEqual(keyed);
    expect(packed.findings.length).toBeGreaterThan(0);
  }, 60_000);

  it('is used: a check with it runs fewer runs than one without, with the same result', () => {
    const options = { properties: PROPERTIES, seed: 1, runs: 60 };
    const shape = { plan: { faults: ALPHABET_000 } };
    const counted = (store: boolean) => {
      const runner = worldRunner(VULNERABLE_000, DEFAULT_WORLD);
      const { store: _s, ...without } = runner;
      let runs = 0;
      const base = store ? runner : without;
      const r = randomCheck(
        { ...base, runInto: (i: CheckInput, open: Parameters<typeof runner.runInto>[1]) => (runs++, runner.runInto(i, open)) },
        options,
        shape,
      );
      return { runs, tally: r.tally, counterexamples: [...r.counterexamples] };
    };
    runStore.clear();
    const withStore = counted(true);
    const withoutStore = counted(false);
    expect(withStore.counterexamples).toEqual(withoutStore.counterexamples);
    expect(withStore.tally).toEqual(withoutStore.tally);
    expect(withStore.runs).toBeLessThan(withoutStore.runs);
    expect(runStore.size).toBeGreaterThan(0);
  });
});

// The shrink's verdicts shared by combinations (search/random/verdict-memo.ts): cells that shrink with
// the memo another cell filled give the results each gives alone (every verdict, counterexample,
// certificate, count), and the memo is reached: most of the later cells' candidates are not run.
import { beforeEach, describe, expect, it } from 'vitest';
import { checkCell } from '../../../sim/compare/check-cell.ts';
import { buildMatrix } from '../../../sim/compare/matrix.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { clearSharedVerdicts, sharedVerdictCounts } from '../../../sim/search/random/verdict-memo.ts';

const cells = buildMatrix('seeds', { server: {}, client: {} });
/** The seed-000 cells under the seed alphabet: one shape, one knob or two apart. */
const seed000 = cells.filter((c) => c.faults.join() === cells[0]!.faults.join() && c.name.startsWith('seed 000'));
const run = (cell: (typeof cells)[number]) => JSON.stringify(checkCell(cell, { seed: 1, runs: 100, properties: PROPERTIES }));

beforeEach(() => clearSharedVerdicts());

describe("the shrink's shared verdicts", () => {
  it('give every cell the result it gives alone, and answer candidates of later cells', () => {
    expect(seed000.length).toBeGreaterThan(8);
    const alone = seed000.map((cell) => {
      clearSharedVerdicts();
      return run(cell);
    });
    clearSharedVerdicts();
    const before = { ...sharedVerdictCounts };
    const together = seed000.map(run);
    expect(together).toEqual(alone);
    const found = sharedVerdictCounts.found - before.found;
    const kept = sharedVerdictCounts.kept - before.kept;
    // Reached: candidates answered from the memo (738 here, 99 of them violating some property), and
    // candidates that had to run (332). Answering every found candidate "holds", or "violates", fails above.
    expect(found).toBeGreaterThan(300);
    expect(sharedVerdictCounts.foundViolating - before.foundViolating).toBeGreaterThan(30);
    expect(kept).toBeGreaterThan(100);
    // Several cells violated something, so that there was a shrink to share.
    expect(alone.filter((r) => r.includes('"verdict":"violated"')).length).toBeGreaterThan(2);
  });
});

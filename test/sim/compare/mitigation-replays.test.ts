// The finder's replays of a silent finding's own input under each neighbour (compare/mitigations.ts
// `replaysOf`): a neighbour that changes a knob the finding's own replay never read is answered by that
// replay, without a run (search/random/read-set.ts); every neighbour fares as its own replay says.
import { describe, expect, it } from 'vitest';
import { buildMatrix } from '../../../sim/compare/matrix.ts';
import { runComparison } from '../../../sim/compare/compare.ts';
import { isSilentFinding, MITIGATION_PROPERTIES, replayOf, replaysOf } from '../../../sim/compare/mitigations.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { differing, knobValues, readsDuring } from '../../../sim/search/random/read-set.ts';

const finder = PROPERTIES.filter((p) => MITIGATION_PROPERTIES.includes(p.name));

describe("the finder's replays", () => {
  it('give each neighbour the replay it gives alone, those that change an unread knob among them', async () => {
    const cells = buildMatrix('seeds', { server: {}, client: {} }).slice(0, 16);
    const base = { seed: 1, runs: 40, kind: 'seeds' as const, cut: { server: {}, client: {} }, size: cells.length, policies: [] };
    const silent = (await runComparison(cells, base)).findings.filter((f) => isSilentFinding(f));
    expect(silent.length).toBeGreaterThan(10);
    let unread = 0;
    let read = 0;
    let broken = 0;
    const faredSeen = new Set<string>();
    for (const f of silent) {
      const cell = cells.find((c) => c.id === f.cell)!;
      const x = { seed: 1, runs: 40, properties: finder, faults: cell.faults, shape: cell.shape };
      const ownReads = readsDuring(() => replayOf(f, f.combination, x))[1];
      const values = knobValues(f.combination);
      for (const t of replaysOf(f, x)) {
        // A change that breaks the fault-free run is not replayed (compare/fault-free.ts).
        if (t.replay === null) {
          expect(t.broken).toMatch(/^the client speaks only/);
          broken++;
          continue;
        }
        // A judge of its own for each (no judges shared): the replay as it runs alone.
        expect(t.replay, `${f.id} ${t.change}`).toBe(replayOf(f, t.combination, x));
        faredSeen.add(t.replay);
        if ((differing(knobValues(t.combination), values) & ownReads) === 0) unread++;
        else read++;
      }
    }
    // Reached: neighbours the own replay answers and neighbours that ran, faring in several ways.
    expect(unread).toBeGreaterThan(0);
    expect(read).toBeGreaterThan(0);
    expect(faredSeen.size).toBeGreaterThan(1);
    // Every finding here is on 2025-11-25 both sides: moving one side to 2026-07-28 breaks the fault-free run.
    expect(broken).toBe(2 * silent.length);
  });
});

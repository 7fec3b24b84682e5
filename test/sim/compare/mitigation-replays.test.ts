// The finder's replays of a silent finding's own input under each neighbour (compare/mitigations.ts
// `replaysOf`): the finding's own replay, kept in the run store, answers every neighbour that changes a
// knob it never read. Every neighbour fares as its own replay says with the store off.
import { afterEach, describe, expect, it } from 'vitest';
import { buildMatrix } from '../../../sim/compare/matrix.ts';
import { runComparison } from '../../../sim/compare/compare.ts';
import { isSilentFinding, MITIGATION_PROPERTIES, replayOf, replaysOf } from '../../../sim/compare/mitigations.ts';
import { runStore } from '../../../sim/search/run-store.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { runConfig } from '../../../sim/plugins/run-config.ts';

const finder = runConfig({ seed: 1, runs: 40, properties: PROPERTIES.filter((p) => MITIGATION_PROPERTIES.includes(p.name)) });

afterEach(() => {
  runStore.enabled = true;
});

describe("the finder's replays", () => {
  it('give each neighbour the replay it gives with the store off; the store answers some without a run', async () => {
    const cells = buildMatrix('records', { server: {}, client: {} }).slice(0, 16);
    const matrix = { cells, kind: 'records' as const, cut: { server: {}, client: {} }, size: cells.length };
    const silent = (await runComparison(matrix, runConfig({ seed: 1, runs: 40 }))).findings.filter((f) => isSilentFinding(f));
    expect(silent.length).toBeGreaterThan(10);
    let broken = 0;
    let replayed = 0;
    const faredSeen = new Set<string>();
    const counts = { asked: 0, judged: 0, recorded: 0 };
    for (const f of silent) {
      const cell = cells.find((c) => c.id === f.cell)!;
      const x = { config: finder, faults: cell.faults, shape: cell.shape };
      runStore.enabled = true;
      runStore.clear();
      const tried = replaysOf(f, { ...x, counts });
      runStore.enabled = false;
      for (const t of tried) {
        // A change that breaks the fault-free run is not replayed (compare/fault-free.ts).
        if (t.replay === null) {
          expect(t.broken).toMatch(/^the client speaks only/);
          broken++;
          continue;
        }
        // A judge of its own for each (no judges shared), no store: the replay as it runs alone.
        expect(t.replay, `${f.id} ${t.change}`).toBe(replayOf(f, t.combination, x));
        faredSeen.add(t.replay);
        replayed++;
      }
    }
    // Reached: the own replays (one per finding, each judged) answered some neighbours (fewer runs judged
    // than replays asked for), and others ran; they fared in several ways.
    expect(counts.asked).toBe(replayed + silent.length);
    expect(counts.judged).toBeLessThan(counts.asked);
    expect(counts.judged).toBeGreaterThan(silent.length);
    expect(faredSeen.size).toBeGreaterThan(1);
    // Every finding here is on 2025-11-25 both sides: moving one side to 2026-07-28 breaks the fault-free run.
    expect(broken).toBe(2 * silent.length);
  });
});

// The finder's pair search (compare/mitigation-pairs.ts) on a planted case: a fault only 2025-11-25
// sessions meet (test/fixtures/policies/legacy-blank.ts). Moving either side alone to 2026-07-28
// breaks the fault-free run, so the finder lists those changes as breaking it and never as holding;
// no other single change holds clean; the pair that moves both sides does, and the search is bounded
// and the same every time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combination } from '../../../models/policies.ts';
import { runComparison, singleCell, type ReportedFinding } from '../../../sim/compare/compare.ts';
import { overall } from '../../../sim/compare/mitigations.ts';
import { pairIndices, PAIRS_SEARCHED, PAIRS_TRIED } from '../../../sim/compare/mitigation-pairs.ts';
import { loadPolicies } from '../../../sim/plugins/policy-module.ts';
import { runConfig } from '../../../sim/plugins/run-config.ts';

async function planted(): Promise<ReportedFinding[]> {
  const r = await loadPolicies(['test/fixtures/policies/legacy-blank.ts']);
  const cell = singleCell(combination({}, r.additions), ['legacy-blank']);
  const c = await runComparison(
    { cells: [cell], kind: 'records', cut: { server: {}, client: {} }, size: 1 },
    runConfig({ registry: r, seed: 1, runs: 60 }),
  );
  expect(c.cells[0]!.class).toBe('silent');
  return c.findings.filter((f) => f.mitigations);
}

describe('two changes where one is not enough', () => {
  it('finds the pair that moves both sides to 2026-07-28, where either alone breaks the fault-free run', async () => {
    const findings = await planted();
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) {
      // Considered and left out, with the reason, never proposed.
      expect(f.wouldBreak).toEqual([
        { change: 'server.protocol=2026-07-28', reason: 'the client speaks only 2025-11-25; the server only 2026-07-28' },
        { change: 'client.protocol=2026-07-28', reason: 'the client speaks only 2026-07-28; the server only 2025-11-25' },
      ]);
      expect(f.mitigations!.map((m) => m.change)).not.toContain('client.protocol=2026-07-28');
      expect(f.mitigations!.map((m) => m.change)).not.toContain('server.protocol=2026-07-28');
      // No single change holds clean (the content-type guard turns the empty result loud: it holds, loudly).
      expect(f.mitigations!.filter((m) => m.holds && overall(m) === 'clean')).toEqual([]);
      expect(f.mitigations!.some((m) => m.holds && overall(m) !== 'clean')).toBe(true);
      const pairs = f.pairs!;
      expect(pairs.found.map((m) => m.change)).toContain('server.protocol=2026-07-28 + client.protocol=2026-07-28');
      for (const m of pairs.found) expect(m).toMatchObject({ replay: 'clean', holds: true, search: { fared: 'clean', sameCause: 0 } });
      expect(pairs.found[0]!.search!.runs).toBe(60);
      expect(pairs.tried).toBeLessThanOrEqual(PAIRS_TRIED);
      expect(pairs.searched).toBeLessThanOrEqual(PAIRS_SEARCHED);
      expect(pairs.tried).toBeLessThan(pairs.of);
    }
  });

  it('tries the same pairs and finds the same every time', async () => {
    const strip = (fs: ReportedFinding[]) =>
      fs.map((f) => ({ id: f.id, mitigations: f.mitigations, wouldBreak: f.wouldBreak, pairs: f.pairs }));
    expect(strip(await planted())).toEqual(strip(await planted()));
  });
});

describe('the order pairs are tried in', () => {
  // The reference: every pair of different knobs, sorted by (both broken first, i + j, i), cut at `limit`.
  function sorted(knobs: string[], broken: boolean[], limit: number) {
    const all: [number, number][] = [];
    for (let i = 0; i < knobs.length; i++) for (let j = i + 1; j < knobs.length; j++) if (knobs[i] !== knobs[j]) all.push([i, j]);
    const key = ([i, j]: [number, number]) => (broken[i] && broken[j] ? 0 : 1);
    all.sort((a, b) => key(a) - key(b) || a[0] + a[1] - (b[0] + b[1]) || a[0] - b[0]);
    return { indices: all.slice(0, limit), of: all.length };
  }

  it('is the sorted order of every pair of different knobs, cut at the limit', () => {
    const change = fc.record({ knob: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), broken: fc.boolean() });
    fc.assert(
      fc.property(fc.array(change, { maxLength: 40 }), fc.integer({ min: 0, max: 80 }), (changes, limit) => {
        const knobs = changes.map((c) => c.knob);
        const broken = changes.map((c) => c.broken);
        expect(pairIndices(knobs, broken, limit)).toEqual(sorted(knobs, broken, limit));
      }),
      { seed: 1, numRuns: 500 },
    );
    // Reached: a case where both-broken pairs come first and the cut falls inside the rest.
    const knobs = ['a', 'b', 'a', 'c', 'd'];
    const broken = [false, true, false, false, true];
    expect(pairIndices(knobs, broken, 3).indices).toEqual([
      [1, 4],
      [0, 1],
      [0, 3],
    ]);
  });
});

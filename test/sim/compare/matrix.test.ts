// The comparison matrix: its default and full forms, cuts, and shards that partition it.
import { describe, expect, it } from 'vitest';
import { buildMatrix, shardOf } from '../../../sim/compare/matrix.ts';
import { SEED_CELLS } from '../../../sim/core/cells.ts';
import { FAULT_VOCABULARY } from '../../../models/faults.ts';
import { parseCut } from '../../../sim/cli/commands/compare.ts';
import { loadPolicies } from '../../../sim/plugins/policy-module.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

const none = { server: {}, client: {} };

describe('the matrix', () => {
  it("by default holds every seed cell under its record's alphabet, then under all faults", () => {
    const m = buildMatrix('records', none);
    expect(m).toHaveLength(2 * SEED_CELLS.length);
    expect(m.map((c) => c.index)).toEqual(m.map((_, i) => i));
    expect(m[0]).toMatchObject({
      name: 'record 000 vulnerable · record alphabet',
      faults: SEED_CELLS[0]!.faults,
      record: '000',
      role: 'vulnerable',
    });
    expect(m[1]).toMatchObject({ name: 'record 000 vulnerable · all faults', faults: FAULT_VOCABULARY, alphabet: 'all faults' });
    expect(new Set(m.map((c) => c.id)).size).toBe(m.length);
    expect(m.filter((c) => c.record === '003').every((c) => c.shape.workload?.progress === 'always')).toBe(true);
  });

  it('in full takes every value of every knob and every guard subset', () => {
    const m = buildMatrix('full', none);
    expect(m).toHaveLength(5 * 2 * 2 * 3 * 2 * 2 * 8);
    expect(new Set(m.map((c) => JSON.stringify(c.combination))).size).toBe(m.length);
    expect(new Set(m.map((c) => c.id)).size).toBe(m.length);
  });

  it('is cut to the listed values, guard subsets in any order', () => {
    const m = buildMatrix('full', { server: { reinit: ['reject', 'pin-first'] }, client: { guards: ['probe+content-type', ''] } });
    expect(m).toHaveLength(2 * 2 * 2 * 3 * 2 * 2 * 2);
    expect(new Set(m.map((c) => c.combination.client.guards.join('+')))).toEqual(new Set(['', 'content-type+probe']));
    const seeds = buildMatrix('records', { server: { reinit: ['idempotent'] }, client: {} });
    expect(seeds.map((c) => c.name)).toEqual([
      'record 000: server.reinit=idempotent · record alphabet',
      'record 000: server.reinit=idempotent · all faults',
    ]);
  });

  it("takes a policy module's values and faults from the additions it is given, in every kind", async () => {
    const { additions } = await loadPolicies(['test/fixtures/policies/twin-a.ts']);
    const cut = parseCut('reinit=twin|reject', 'guards=', additions);
    const full = buildMatrix('full', cut, [], additions);
    expect(new Set(full.map((c) => c.combination.server.reinit))).toEqual(new Set(['twin', 'reject']));
    for (const kind of ['records', 'migration', 'full'] as const) {
      const all = buildMatrix(kind, none, [], additions).filter((c) => c.alphabet === 'all faults');
      expect(all.length).toBeGreaterThan(0);
      for (const c of all) expect(c.faults).toEqual([...FAULT_VOCABULARY, 'twin-fault']);
    }
    // Without them, the module's names are unknown.
    expect(() => parseCut('reinit=twin', '', NO_ADDITIONS)).toThrow(/unknown server.reinit value 'twin'/);
    expect(buildMatrix('records', none).every((c) => !c.faults.includes('twin-fault'))).toBe(true);
  });

  it('splits into shards that cover it exactly once', () => {
    const m = buildMatrix('records', none);
    for (let n = 1; n <= 5; n++) {
      const shards = Array.from({ length: n }, (_, i) => shardOf(m, { index: i + 1, count: n }));
      expect(
        shards
          .flat()
          .map((c) => c.index)
          .sort((a, b) => a - b),
      ).toEqual(m.map((c) => c.index));
      expect(Math.max(...shards.map((s) => s.length)) - Math.min(...shards.map((s) => s.length))).toBeLessThanOrEqual(1);
    }
  });
});

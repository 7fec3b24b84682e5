// compare.json's `fixes` (sim/compare/fixes.ts): per silent cause group the finder worked on, the fixes
// ranked as the Markdown shows them, so that a designer can script a decision. Checked on the default
// comparison as a user runs it: the same groups and ranked fixes the reports compute, the duplicate
// execution's group led by the server-side idempotency proposal, and recomputed equal from the JSON.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultComparison } from '../fixtures/default-comparison.ts';
import type { Comparison } from '../../sim/compare/compare.ts';
import { fixesByGroup } from '../../sim/compare/fixes.ts';
import { rankedFixes } from '../../sim/core/fixes-table.ts';
import { groupsOf, whatChangesWhat } from '../../reports/compare-causes.ts';

describe("compare.json's ranked fixes", () => {
  let c: Comparison;
  let md: string;
  beforeAll(async () => {
    const r = await defaultComparison();
    c = JSON.parse(readFileSync(join(r.dir, 'compare.json'), 'utf8'));
    md = readFileSync(join(r.dir, 'compare.md'), 'utf8');
  }, 300_000);

  it('sits after the cause groups, one entry per silent group the finder worked on, in group order', () => {
    const keys = Object.keys(c);
    expect(keys.indexOf('fixes')).toBe(keys.indexOf('causes') + 1);
    const t = whatChangesWhat(c, groupsOf(c));
    expect(c.fixes.map((g) => g.group)).toEqual(t.groups.map((g) => g.label));
    expect(c.fixes.length).toBeGreaterThan(5);
  });

  it('ranks each group’s fixes as the reports do', () => {
    const groups = groupsOf(c);
    const t = whatChangesWhat(c, groups);
    for (const g of t.groups) {
      const json = c.fixes.find((x) => x.group === g.label)!;
      expect(json.mechanism).toBe(g.mechanism);
      expect(json.fixes.map(({ proposal, ...x }) => x)).toEqual(rankedFixes(t.rows, g));
      for (const x of json.fixes) expect(x.of).toBe(json.searched);
    }
  });

  it("gives the duplicate execution's group its fixes, the idempotency proposal named as one, as the Markdown shows it", () => {
    const dup = c.fixes.find((g) => g.mechanism === 'duplicate-execution')!;
    expect(dup.searched).toBeGreaterThan(0);
    const idempotency = dup.fixes.find((x) => x.change === 'server.idempotency=request-key')!;
    expect(idempotency.holds).toBe(idempotency.of);
    expect(idempotency.proposal).toMatch(/SEP-3182/);
    expect(dup.fixes.find((x) => x.change === 'client.reissue=never')?.proposal).toBeNull();
    const order = ['clean', 'loud, recovers', 'loud, never recovers'];
    const ranks = dup.fixes.map((x) => order.indexOf(x.fared));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(md).toContain('server.idempotency=request-key');
  });

  it('is a function of the findings and groups: recomputed from the JSON, the same', () => {
    expect(fixesByGroup(c.findings, c.causes)).toEqual(c.fixes);
  });
});

// The recommendation (sim/compare/recommendation.ts) on the default matrix as a user runs it, and its
// ranking rules on made-up candidates: what the records' faults admit, what no combination survives
// under all faults (with the finding and what outside the vocabulary would be needed), ties where the
// data cannot tell two choices apart, and the same answer recomputed from the written JSON.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultComparison } from '../../fixtures/default-comparison.ts';
import type { Comparison } from '../../../sim/compare/compare.ts';
import { recommend, type RecommendationScope } from '../../../sim/compare/recommendation.ts';
import { rankCandidates, type Candidate } from '../../../sim/compare/recommendation-rank.ts';
import { combination } from '../../../models/policies.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

describe('the recommendation of the default comparison', () => {
  let c: Comparison;
  let stdout: string;
  const scope = (name: string): RecommendationScope => {
    const s = c.recommendation.scopes.find((x) => x.name.startsWith(name));
    if (!s) throw new Error(`no scope ${name}: ${c.recommendation.scopes.map((x) => x.name).join('; ')}`);
    return s;
  };

  beforeAll(async () => {
    const { dir, stdout: out } = await defaultComparison();
    stdout = out;
    c = JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8'));
  }, 600_000);

  it('comes before the cells and says what it was computed over', () => {
    const keys = Object.keys(c);
    expect(keys.indexOf('recommendation')).toBeLessThan(keys.indexOf('cells'));
    expect(c.recommendation.over).toEqual({ matrix: 'records', cells: 42, of: 42, runs: 200, seed: 1, partial: false });
    expect(c.recommendation.order[0]).toMatch(/^no silent failure/);
  });

  it("under record 000's faults: the server's pin-first and idempotent tie, the client reconnects on a new session", () => {
    const s = scope('record 000 · record alphabet');
    expect(s.clean).toBe(true);
    expect(s.unfixed).toEqual([]);
    const [a, b] = s.server;
    expect([a!.changes, b!.changes]).toEqual([['server.reinit=pin-first'], ['server.reinit=idempotent']]);
    expect([a!.rank, b!.rank]).toEqual([1, 1]);
    expect(a!.tiedWith.shown).toContain('server.reinit=idempotent');
    expect(s.client[0]!.changes).toEqual(['client.reconnect=new-session']);
    expect(s.client[0]!.class).toBe('loud, recovers');
    expect(s.client[0]!.survives).toEqual(['http-502', 'config-reset']);
  });

  it('under all faults: no combination is clean, and the duplicate execution defeats every one', () => {
    for (const name of ['record 000 · all faults', 'record 003 · all faults']) {
      const s = scope(name);
      expect(s.clean).toBe(false);
      const dup = s.unfixed.find((u) => u.mechanism === 'duplicate-execution');
      expect(dup, name).toBeDefined();
      expect(dup!.outside).toMatch(/idempotency on the server/);
      expect(dup!.groups).toContain('G1');
      expect(dup!.families).toContain('connection-reset');
      // The finder searched the duplicate's findings: the proposal knob makes every one hold, and is named as one.
      const idempotent = dup!.fixes.find((x) => x.change === 'server.idempotency=request-key');
      expect(idempotent?.proposal).toMatch(/SEP-3182/);
      expect(idempotent!.holds).toBe(idempotent!.of);
      expect(dup!.fixes.map((x) => x.change)).toContain('client.reissue=never');
      // The finding it names exists, in a combination of the scope, and ran the tool twice.
      const f = c.findings.find((x) => x.id === dup!.finding);
      expect(f?.properties.map((p) => p.property)).toContain('at-most-once');
    }
  });

  it('names, for each failure of a recommended combination, a finding of its own cell (or one replayed on it) and that finding’s mechanism', () => {
    for (const s of c.recommendation.scopes)
      for (const r of [...s.server, ...s.client, ...s.pair])
        for (const f of r.failures) {
          const found = c.findings.find((x) => x.id === f.finding)!;
          if (f.replayed) {
            // Another cell's finding, whose replay on this combination the finder recorded silent by its mechanism.
            expect(r.cells).not.toContain(found.cell);
            const m = found.mitigations?.find((x) => x.change === f.replayed!.change);
            expect(m?.replaySilentBy).toBe(found.cause!.mechanism);
          } else expect(r.cells).toContain(found.cell);
          expect(f.mechanism).toBe(found.cause!.mechanism);
          expect(s.families).toEqual(expect.arrayContaining(r.survives));
        }
  });

  it("opens the terminal output, the records' faults first, with no line past 120 columns", () => {
    const lines = stdout.split('\n');
    expect(lines[2]).toMatch(/^Recommendation, over the 42 cells of the records matrix run; ranked: no silent failure > recovers/);
    const first = lines.slice(0, 50).join('\n');
    expect(first).toMatch(
      /^record 000 · record alphabet .*\n {2}server: server\.reinit=pin-first or server\.reinit=idempotent \(indistinguishable\)/m,
    );
    expect(first).toMatch(/^record 000 · all faults: NO combination of the 13 is free of silent failure/m);
    expect(first).toMatch(/silent in every one: duplicate-execution \(G1/);
    expect(first.indexOf('record 003 · record alphabet')).toBeLessThan(first.indexOf('record 000 · all faults'));
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(120);
  });

  it('is a function of the cells and findings: recomputed from the JSON, it is the same', () => {
    expect(recommend({ ...c, matrix: c.matrix, causes: c.causes })).toEqual(c.recommendation);
  });
});

describe('ranking', () => {
  const base = combination({}, NO_ADDITIONS);
  const candidate = (name: string, over: Partial<Omit<Candidate, 'counts'>> & { counts?: Partial<Candidate['counts']> }): Candidate => ({
    changes: [name],
    combination: base,
    cells: [name],
    class: 'loud, recovers',
    silent: false,
    recovers: true,
    duplicate: false,
    survives: [],
    failures: [],
    ...over,
    counts: { runs: 200, silentCalls: 0, duplicateRuns: 0, capsChangedRuns: 0, refused: 40, roundTrips: 90, ...over.counts },
  });

  it('orders silent after loud, stuck after recovering, then by cost; costs within a tenth share a rank', () => {
    const ranked = rankCandidates([
      candidate('silent', { class: 'silent', silent: true, counts: { silentCalls: 3, roundTrips: 0, refused: 0 } }),
      candidate('stuck', { class: 'loud, never recovers', recovers: false, counts: { roundTrips: 10 } }),
      candidate('dear', { counts: { roundTrips: 200 } }),
      candidate('cheap', { counts: { roundTrips: 90 } }),
      candidate('as-cheap', { counts: { roundTrips: 95 } }),
    ]);
    expect(ranked.map((r) => [r.changes[0], r.rank])).toEqual([
      ['cheap', 1],
      ['as-cheap', 1],
      ['dear', 3],
      ['stuck', 4],
      ['silent', 5],
    ]);
  });

  it('among silent ones, fewer silent failures over the same runs first', () => {
    const ranked = rankCandidates([
      candidate('many', { class: 'silent', silent: true, duplicate: true, counts: { silentCalls: 10, duplicateRuns: 20 } }),
      candidate('few', { class: 'silent', silent: true, duplicate: true, counts: { silentCalls: 1, duplicateRuns: 20 } }),
    ]);
    expect(ranked.map((r) => r.changes[0])).toEqual(['few', 'many']);
  });
});

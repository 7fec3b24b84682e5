// The finder's searches as one queue per comparison (compare/mitigation-searches.ts): each distinct
// search runs once, on whichever executor is free, and the mitigations are the same as the finder
// computing every search itself, in order (mitigationsOf), with or without a helper.
import { describe, expect, it } from 'vitest';
import { buildMatrix } from '../../compare/matrix.ts';
import { runComparison } from '../../compare/compare.ts';
import { MitigationSearches, type RemoteSearcher, type SearchSpec } from '../../compare/mitigation-searches.ts';
import { isSilentFinding, MITIGATION_PROPERTIES, mitigationsOf, runSearch } from '../../compare/mitigations.ts';
import { PROPERTIES } from '../../properties/properties.ts';

const settings = { seed: 1, runs: 40, properties: PROPERTIES.filter((p) => MITIGATION_PROPERTIES.includes(p.name)) };
const spec = (n: number): SearchSpec => ({ combination: { n } as never, faults: [], shape: {} });

describe('the mitigation searches of a comparison', () => {
  it('runs each distinct search once, here or on a helper, and a failed helper’s search here', async () => {
    const ran: number[] = [];
    const searches = new MitigationSearches(settings, (s) => (ran.push((s.combination as never as { n: number }).n), []));
    const remote: number[] = [];
    let calls = 0;
    const helper: RemoteSearcher = async (s) => {
      if (++calls === 3) throw new Error('the thread stopped');
      remote.push((s.combination as never as { n: number }).n);
      return [{ silent: null, loud: true, stuck: false }];
    };
    const asked = [1, 2, 1, 3, 4, 5, 2].map((n) => searches.search(spec(n)));
    const helped = searches.helpWith(helper);
    await Promise.all([...asked, helped]);
    expect(searches.counts).toEqual({ asked: 7, distinct: 5 });
    expect([...ran, ...remote].sort()).toEqual([1, 2, 3, 4, 5]); // each once, whoever ran it
    expect(remote.length).toBeGreaterThan(0);
    expect(ran.length).toBeGreaterThan(0); // the search the helper failed on came back here
  });

  it('finds the mitigations mitigationsOf finds, with a helper or without', async () => {
    const cells = buildMatrix('seeds', { server: {}, client: {} }).slice(0, 1);
    const base = { seed: 1, runs: 40, kind: 'seeds' as const, cut: { server: {}, client: {} }, size: 1, policies: [] };
    const alone = await runComparison(cells, base);
    const helper: RemoteSearcher = async (s, x) => runSearch(s.combination, { ...x, faults: s.faults, shape: s.shape });
    const helped = await runComparison(cells, { ...base, searchHelpers: [helper] });
    expect(helped.findings).toEqual(alone.findings);
    const silent = alone.findings.filter((f) => isSilentFinding(f));
    expect(silent.length).toBeGreaterThan(0);
    for (const f of silent) {
      const x = { ...settings, faults: cells[0]!.faults, shape: cells[0]!.shape, cache: new Map() };
      expect(f.mitigations).toEqual(mitigationsOf(f, x));
      expect(f.mitigations!.some((m) => m.holds)).toBe(true); // the record's mitigations are among them
    }
  });
});

// The finder's searches as one queue per comparison (compare/mitigation-searches.ts): each distinct
// search runs once, on whichever executor is free, and the mitigations are the same as the finder
// computing every search itself, in order (mitigationsOf), with or without a helper.
import { describe, expect, it } from 'vitest';
import { buildMatrix } from '../../../sim/compare/matrix.ts';
import { Annotator, checkCell, runCell, runComparison, type ReportedFinding } from '../../../sim/compare/compare.ts';
import { findingsOf } from '../../../sim/compare/findings.ts';
import { MitigationSearches, type RemoteSearcher, type SearchSpec } from '../../../sim/compare/mitigation-searches.ts';
import { isSilentFinding, MITIGATION_PROPERTIES, runSearch } from '../../../sim/compare/mitigations.ts';
import { mitigationsOf } from '../../../sim/compare/mitigation-finder.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';
import { runConfig } from '../../../sim/plugins/run-config.ts';

// The finder's config: the comparison's, judging only what the finder reads.
const settings = runConfig({ seed: 1, runs: 40, properties: PROPERTIES.filter((p) => MITIGATION_PROPERTIES.includes(p.name)) });
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
    expect(searches.counts).toEqual({ asked: 7, distinct: 5, fromCells: 0 });
    expect([...ran, ...remote].sort()).toEqual([1, 2, 3, 4, 5]); // each once, whoever ran it
    expect(remote.length).toBeGreaterThan(0);
    expect(ran.length).toBeGreaterThan(0); // the search the helper failed on came back here
  });

  it('answers each ask with the marks its search gave, in order, kept packed between asks', async () => {
    const marksOf = (n: number) =>
      Array.from({ length: 3 * n }, (_, i) => ({ silent: i % 3 === 0 ? `mechanism-${n}` : null, loud: i % 2 === 0, stuck: i % 5 === 0 }));
    const searches = new MitigationSearches(settings, (s) => marksOf((s.combination as never as { n: number }).n));
    const helper: RemoteSearcher = async (s) => structuredClone(marksOf((s.combination as never as { n: number }).n));
    const asks = [1, 2, 3, 1, 4, 2];
    const asked = asks.map((n) => searches.search(spec(n)));
    await Promise.all([...asked, searches.helpWith(helper)]);
    const answers = await Promise.all(asked);
    for (const [i, a] of answers.entries()) expect(a).toEqual(marksOf(asks[i]!));
    // One object per distinct mark, whichever thread ran the search.
    const all = answers.flatMap((a) => (a === 'policy-error' ? [] : a));
    expect(new Set(all).size).toBe(new Set(all.map((m) => JSON.stringify(m))).size);
    const failing = new MitigationSearches(settings, () => 'policy-error');
    expect(await failing.search(spec(9))).toBe('policy-error');
  });

  it('finds the mitigations mitigationsOf finds, with a helper or without', async () => {
    const cells = buildMatrix('records', { server: {}, client: {} }).slice(0, 1);
    const matrix = { cells, kind: 'records' as const, cut: { server: {}, client: {} }, size: 1 };
    const config = runConfig({ seed: 1, runs: 40 });
    const alone = await runComparison(matrix, config);
    const helper: RemoteSearcher = async (s, c) => runSearch(s.combination, { config: c, faults: s.faults, shape: s.shape });
    const helped = await runComparison(matrix, config, { searchHelpers: [helper] });
    expect(helped.findings).toEqual(alone.findings);
    const silent = alone.findings.filter((f) => isSilentFinding(f));
    expect(silent.length).toBeGreaterThan(0);
    for (const f of silent) {
      const x = { config: settings, faults: cells[0]!.faults, shape: cells[0]!.shape, cache: new Map() };
      const { mitigations, wouldBreak, pairs } = await mitigationsOf(f, x);
      expect({ mitigations: f.mitigations, wouldBreak: f.wouldBreak, pairs: f.pairs }).toEqual({ mitigations, wouldBreak, pairs });
      expect(f.mitigations!.some((m) => m.holds)).toBe(true); // the record's mitigations are among them
    }
  });
});

describe("a search a cell's runs answer", () => {
  const flagsSearch = (log: string[]) =>
    new MitigationSearches(settings, (s, sampled) => {
      log.push(`${(s.combination as never as { n: number }).n}${sampled ? `:${[...sampled].join('')}` : ''}`);
      return [];
    });

  it('waits for the cell that is expected to offer it, runs its flags, and runs in full if the cell never does', async () => {
    const log: string[] = [];
    const searches = flagsSearch(log);
    const key = (n: number) => MitigationSearches.keyOf(spec(n));
    searches.expect(key(1));
    searches.expect(key(2));
    searches.offer(key(3), Uint8Array.of(1, 0)); // offered before it is asked for
    const asked = [1, 2, 3, 4].map((n) => searches.search(spec(n)));
    await new Promise((r) => setTimeout(r, 20));
    expect(log).toEqual(['3:10', '4']); // 1 and 2 wait for their cells
    searches.offer(key(1), Uint8Array.of(0, 5));
    await new Promise((r) => setTimeout(r, 20));
    expect(log).toEqual(['3:10', '4', '1:05']);
    searches.cellsDone(); // 2's cell stopped before it ran: 2 runs in full
    await Promise.all(asked);
    expect(log).toEqual(['3:10', '4', '1:05', '2']);
    expect(searches.counts).toEqual({ asked: 4, distinct: 4, fromCells: 2 });
  });

  it('hands a helper the flags of a search a cell answered, with the search', async () => {
    const log: string[] = [];
    const searches = flagsSearch(log);
    const key = (n: number) => MitigationSearches.keyOf(spec(n));
    searches.expect(key(1));
    const asked = [searches.search(spec(1)), searches.search(spec(2))];
    searches.offer(key(1), Uint8Array.of(1, 4));
    const remote: string[] = [];
    const helper: RemoteSearcher = async (s, _x, sampled) => {
      remote.push(`${(s.combination as never as { n: number }).n}${sampled ? `:${[...sampled].join('')}` : ''}`);
      return [];
    };
    await Promise.all([...asked, searches.helpWith(helper)]);
    expect([...log, ...remote].sort()).toEqual(['1:14', '2']);
    expect(remote).toContain('1:14'); // the helper ran the cell's search, given its flags
  });

  it('gives the mitigations of a full search, where a neighbour is a cell of the comparison', async () => {
    // Five cells one reinit apart: every `server.reinit=…` neighbour of a finding is another cell.
    const cut = {
      server: { streaming: ['negotiated'], advertise: ['static'] },
      client: { reconnect: ['replay-mutable'], accept: ['always'], parser: ['pinned'], guards: [''] },
    };
    const cells = buildMatrix('full', cut);
    expect(cells.map((c) => c.combination.server.reinit)).toEqual(['honor-last', 'pin-first', 'reject', 'idempotent', 'new-session']);
    const run = runConfig({ seed: 1, runs: 40, properties: PROPERTIES });
    const annotator = new Annotator(cells, run);
    const annotated: Promise<ReportedFinding[]>[] = [];
    for (const cell of cells) {
      const result = await runCell(cell, checkCell, run, { onSampled: (sampled) => annotator.offer(cell, sampled) });
      annotated.push(annotator.annotate(findingsOf(result, DEFAULT_WORLD)));
    }
    annotator.searches.cellsDone();
    const silent = (await Promise.all(annotated)).flat().filter((f) => isSilentFinding(f));
    expect(silent.length).toBeGreaterThan(0);
    expect(annotator.searches.counts.fromCells).toBeGreaterThan(0);
    for (const f of silent) {
      const cell = cells.find((c) => c.id === f.cell)!;
      const x = { config: settings, faults: cell.faults, shape: cell.shape, cache: new Map() };
      const { mitigations, wouldBreak, pairs } = await mitigationsOf(f, x);
      expect({ mitigations: f.mitigations, wouldBreak: f.wouldBreak, pairs: f.pairs }).toEqual({ mitigations, wouldBreak, pairs });
    }
    // Reached: the searches the cells answered (reinit neighbours) met silent runs (run again here for
    // their mechanism), loud ones, and runs that never recovered.
    const fromCells = silent.flatMap((f) => f.mitigations!.filter((m) => m.change.startsWith('server.reinit=') && m.search));
    expect(fromCells.some((m) => m.search!.sameCause + m.search!.otherSilent > 0)).toBe(true);
    expect(fromCells.some((m) => m.search!.fared === 'loud, never recovers')).toBe(true);
  });
});

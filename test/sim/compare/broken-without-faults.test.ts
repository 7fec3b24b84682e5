// Works without faults, first (compare/fault-free.ts): a combination whose fault-free run fails a call
// is `broken without faults`, never `loud, never recovers`. In a comparison such a cell tries no fault;
// the migration matrix's mixed pairs where the revisions cannot meet are classed so, with the reason,
// and count as a failure mode of neither revision; every report format shows the class and the reason.
import { describe, expect, it } from 'vitest';
import { combination, type ClientProtocol, type ServerProtocol } from '../../../models/policies.ts';
import { runComparison } from '../../../sim/compare/compare.ts';
import { brokenWithoutFaults, faultFreeWorkloads, worldFaultFree } from '../../../sim/compare/fault-free.ts';
import { buildMatrix } from '../../../sim/compare/matrix.ts';
import { call, list } from '../../../sim/core/workload.ts';
import { renderHtml } from '../../../reports/compare-html.ts';
import { renderJson } from '../../../reports/compare-json.ts';
import { renderMarkdown } from '../../../reports/compare-markdown.ts';
import { renderSummary } from '../../../reports/compare-text.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';
import { runConfig } from '../../../sim/plugins/run-config.ts';

const pair = (server: ServerProtocol, client: ClientProtocol) =>
  combination({ server: { protocol: server }, client: { protocol: client } }, NO_ADDITIONS);

describe('a combination judged without faults', () => {
  it('is broken exactly where the two sides share no revision, with the reason and the failed calls', () => {
    const cases: [ServerProtocol, ClientProtocol, string | null][] = [
      ['2025-11-25', '2026-07-28', 'the client speaks only 2026-07-28; the server only 2025-11-25'],
      ['2026-07-28', '2025-11-25', 'the client speaks only 2025-11-25; the server only 2026-07-28'],
      ['2025-11-25', '2025-11-25', null],
      ['2026-07-28', '2026-07-28', null],
      ['dual', '2026-07-28', null],
      ['2025-11-25', 'negotiate', null],
      ['2026-07-28', 'negotiate', null],
    ];
    for (const [server, client, reason] of cases) {
      const c = pair(server, client);
      const broken = brokenWithoutFaults(c, worldFaultFree(c, DEFAULT_WORLD));
      expect(broken?.reason ?? null, `${server} × ${client}`).toBe(reason);
      if (broken) expect(broken.failed.map((f) => f.end)).toEqual(broken.workload.map(() => 'error'));
    }
  });

  it('tries each kind of step the cell draws, alone and together', () => {
    expect(faultFreeWorkloads({})).toEqual([[call()], [call(true)], [call(), call(true), call(), call(true)]]);
    const all = faultFreeWorkloads({ workload: { lists: true, idempotent: true, progress: 'always', maxCalls: 3 } });
    expect(all.slice(0, 3)).toEqual([[call(true)], [list()], [call(true, false, true)]]);
    expect(all[3]).toEqual([call(true), list(), call(true, false, true)]);
  });
});

describe('the migration matrix', () => {
  it('classes the pairs that cannot meet as broken without faults, tries no fault there, and every report says why', async () => {
    const cells = buildMatrix('migration', { server: {}, client: {} })
      .filter((c) => c.migration!.cell === 'record 003 vulnerable · record alphabet')
      .map((c, index) => ({ ...c, index }));
    expect(cells).toHaveLength(5);
    const c = await runComparison(
      { cells, kind: 'migration', cut: { server: {}, client: {} }, size: cells.length },
      runConfig({ seed: 1, runs: 20 }),
    );
    const byPair = new Map(c.cells.map((x) => [x.migration!.pair, x]));
    for (const [name, reason] of [
      ['new client × legacy server', 'the client speaks only 2026-07-28; the server only 2025-11-25'],
      ['legacy client × new server', 'the client speaks only 2025-11-25; the server only 2026-07-28'],
    ] as const) {
      const x = byPair.get(name)!;
      expect(x.class).toBe('broken without faults');
      expect(x.brokenWithoutFaults!.reason).toBe(reason);
      expect(x.results).toEqual([]); // no fault tried
      expect(c.findings.filter((f) => f.cell === x.id)).toEqual([]);
    }
    // The pairs that meet are judged as before: the legacy pair is record 003's silent cell.
    expect(byPair.get('2025-11-25')!.class).toBe('silent');
    expect(byPair.get('negotiate × dual')!.brokenWithoutFaults).toBeUndefined();
    const row = c.migration![0]!;
    expect(row.pairs.filter((p) => p.broken).map((p) => p.pair)).toEqual(['new client × legacy server', 'legacy client × new server']);
    // Only the two revisions' own pairs are compared: the broken ones add no silent failure to either.
    for (const ch of row.changes) expect([ch.legacy?.finding, ch.modern?.finding].filter(Boolean).join()).not.toMatch(/client-x|server-x/);

    const md = renderMarkdown(c, 200);
    expect(md).toContain('| 2 | ⛔ broken without faults: a call fails with no fault at all');
    expect(md).toContain('## Broken without faults');
    expect(md).toContain('count as a failure mode of neither revision');
    expect(md).toMatch(
      /\| \d+ \| [^|]+new client × legacy server[^|]* \| the client speaks only 2026-07-28; the server only 2025-11-25 \|/,
    );
    const html = renderHtml(c, 200);
    expect(html).toContain('<section id="broken"><h2>Broken without faults</h2>');
    expect(html).toContain('the client speaks only 2025-11-25; the server only 2026-07-28');
    const json = JSON.parse(renderJson(c, 200));
    expect(json.cells.filter((x: { class: string }) => x.class === 'broken without faults')).toHaveLength(2);
    expect(json.migration[0].pairs[2].broken).toBe('the client speaks only 2026-07-28; the server only 2025-11-25');
    const text = renderSummary(c);
    // The terminal summarises a migration matrix: the pairs that cannot meet are counted apart.
    expect(text).toMatch(/^revision pair +faults +clean +loud, recovers +loud, never recovers +silent +cannot meet/m);
    expect(text).toMatch(/^new client × legacy server +[a-z ]+?( +\d+){4} +1 +0$/m);
    expect(text).toContain('Broken without faults (a call fails with no fault at all; no fault was tried): 2 cells');
  });
});

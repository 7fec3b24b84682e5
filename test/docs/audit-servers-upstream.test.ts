// Every verdict of docs/audit-servers.md that is not a pass has an upstream status (issue 37's "Done
// when"): an issue number, or "none found" after a search of the project's tracker, from
// bench/audit-servers-upstream.json. A non-pass without one fails here, naming the server, the scenario
// and the verdict; an entry of the data file that no cell uses fails too (a status outliving its verdict).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nonPasses, statusOf, upstreamStatuses } from '../../bench/audit-servers-upstream.ts';

const page = readFileSync(new URL('../../docs/audit-servers.md', import.meta.url), 'utf8');

/** The table's cells: each server's column name, each scenario, and the cell's text. */
function cells(): { server: string; scenario: string; cell: string }[] {
  const rows = page.split('\n').filter((l) => l.startsWith('| '));
  const split = (l: string) =>
    l
      .slice(2, -2)
      .split(/(?<!\\) \| /)
      .map((c) => c.replaceAll('\\|', '|'));
  const [header, ...body] = rows;
  const servers = split(header!).slice(1);
  return body.flatMap((l) => {
    const [name, ...row] = split(l);
    const scenario = name!.replaceAll('`', '');
    return row.map((cell, i) => ({ server: servers[i]!, scenario, cell }));
  });
}

describe('docs/audit-servers.md: an upstream status for every verdict that is not a pass', () => {
  const entries = upstreamStatuses();
  const needed = cells().flatMap(({ server, scenario, cell }) => nonPasses(cell).map((verdict) => ({ server, scenario, verdict })));

  it('the table has non-passes to check (the parse found the table)', () => {
    expect(cells().length).toBeGreaterThan(100);
    expect(needed.length).toBeGreaterThan(0);
  });

  it('each has a status in bench/audit-servers-upstream.json, printed in its server section', () => {
    const missing = needed.filter((n) => statusOf(entries, n.server, n.scenario, n.verdict) === undefined);
    expect(missing).toEqual([]);
    for (const n of needed)
      expect(page).toContain(`- \`${n.scenario}\` ${n.verdict}: ${statusOf(entries, n.server, n.scenario, n.verdict)}`);
    expect(page).not.toContain('NO STATUS');
  });

  it('every status is an issue number or says none found', () => {
    for (const e of entries) expect(e.status).toMatch(/#\d+|none found/);
  });

  it('no entry outlives its verdict: each matches a cell of the table', () => {
    const unused = entries.filter((e) => !needed.some((n) => n.scenario === e.scenario && n.verdict === e.verdict));
    expect(unused.map((e) => `${e.scenario} ${e.verdict}`)).toEqual([]);
  });
});

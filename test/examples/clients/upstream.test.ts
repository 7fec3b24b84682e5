// Every non-pass of docs/audit-clients.md carries its library's upstream status from
// examples/clients/upstream.json (an issue, or "none found" with the queries searched): a non-pass
// without one fails here, and so does a status no non-pass uses any more (a fixed library's entry
// left behind). The generator (bench/audit-clients-docs.ts) refuses the same gap before writing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MatrixRow } from '../../../sim/audit/client/matrix.ts';
import { missingStatuses, parseUpstream, readUpstream, statusOf, statusText } from '../../../sim/audit/client/upstream.ts';
import { ROOT } from '../../sim/cli/run.ts';

const upstream = readUpstream(join(ROOT, 'examples/clients/upstream.json'));
const page = readFileSync(join(ROOT, 'docs/audit-clients.md'), 'utf8');

/** The page's non-passes: each `#### client · revision · server · \`scenario\`` heading and its upstream line. */
function pageNonPasses(): { client: string; revision: string; server: string; scenario: string; upstream: string | undefined }[] {
  const section = page.slice(page.indexOf('### Not passing'));
  return section
    .split(/^#### /m)
    .slice(1)
    .map((block) => {
      const [client, revision, server, scenario] = block.split('\n')[0]!.split(' · ');
      const line = /^- upstream: (.*)$/m.exec(block)?.[1];
      return { client: client!, revision: revision!, server: server!, scenario: scenario!.replaceAll('`', ''), upstream: line };
    });
}

describe('upstream statuses of the client non-passes', () => {
  it('the page lists its non-passes, as many as its summary counts', () => {
    const counted = Number(/(\d+) not passing/.exec(page)?.[1]);
    expect(pageNonPasses().length).toBe(counted);
    expect(counted).toBeGreaterThan(0);
  });

  it('every non-pass on the page has a status, printed under it', () => {
    const missing = pageNonPasses().filter((r) => !statusOf(upstream, r as never));
    expect(missing.map((r) => `${r.client} ${r.revision} ${r.scenario}`)).toEqual([]);
    for (const r of pageNonPasses())
      expect(r.upstream, `${r.client} ${r.revision} ${r.scenario}`).toBe(
        statusText(statusOf(upstream, r as never)!).replaceAll('|', '\\|'),
      );
  });

  it('every status names at least one non-pass of the page (none left behind by a fix)', () => {
    const rows = pageNonPasses();
    const unused = upstream.statuses.filter((s) => !rows.some((r) => statusOf({ ...upstream, statuses: [s] }, r as never)));
    expect(unused.map((s) => `${s.client} ${s.revisions.join(',')} ${s.scenarios.join(',')}`)).toEqual([]);
  });

  it('a non-pass without a status is found missing; a pass needs none', () => {
    const row = { client: 'nobody', revision: '2025-11-25', server: 'model', scenario: 'stream-cut-call', nonPass: true } as MatrixRow;
    expect(missingStatuses(upstream, [row])).toEqual([row]);
    expect(missingStatuses(upstream, [{ ...row, nonPass: false }])).toEqual([]);
  });

  it('refuses a status that is neither an issue nor a search', () => {
    const file = (status: object) => JSON.stringify({ searched: 'x', statuses: [status] });
    const base = { client: 'c', revisions: ['2025-11-25'], scenarios: ['s'], behaviour: 'b' };
    expect(() => parseUpstream(file(base))).toThrow(/give its "issues", or "noneFound" with the queries/);
    expect(() => parseUpstream(file({ ...base, issues: ['#12'] }))).toThrow(/not "owner\/repo#N \(state: title\)"/);
    expect(() => parseUpstream(file({ ...base, noneFound: 'nothing' }))).toThrow(/needs the "queries" searched/);
    expect(parseUpstream(file({ ...base, issues: ['o/r#1 (open: t)'] })).statuses[0]!.issues).toEqual(['o/r#1 (open: t)']);
  });
});

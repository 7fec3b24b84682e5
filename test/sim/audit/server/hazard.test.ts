// The protocol's hazards apart from the server's defects (issue 37 item 5), on a real server on
// loopback (the order desk, SDK v2, 2026-07-28): a call whose answer is lost makes the client
// re-issue it, and the server, given no idempotency key by the revision, books the order twice. That
// is a `protocol hazard` naming the closed SEP-3182, never `silent`, and it is asked of a server that
// answers with SSE (its stream cut) and of one that answers with JSON (its answer lost) alike.
import { describe, expect, it } from 'vitest';
import { run } from '../../cli/run.ts';
import { ORDERS, withOrdersToken } from '../../../fixtures/servers.ts';

type Row = { verdict: string; why: string; plan: string; evidence: string };

async function once(serve: string): Promise<{ code: number; row: Row }> {
  const argv = ['--serve', serve, ...ORDERS.read, ...ORDERS.write, ...ORDERS.auth, '--only', 'cut-reissue-once'];
  const r = await withOrdersToken('tok-hazard-77e', () => run('audit', '--json', '--quiet', ...argv));
  expect(r.stderr).toBe('');
  return { code: r.code, row: JSON.parse(r.stdout).scenarios[0] };
}

describe('a duplicate the revision gives the server no way to prevent', () => {
  it('SSE answers: the stream cut, the call re-issued and booked twice: protocol hazard (SEP-3182), exit 0', async () => {
    const { code, row } = await once(ORDERS.serve);
    expect(row.plan).toBe('stream-cut at request 1');
    expect(row.verdict).toBe('protocol hazard');
    expect(row.why).toMatch(
      /^at-most-once: call 1's side-effecting tool ran 2 times.*no idempotency key \(the closed SEP-3182 proposed one\)$/,
    );
    expect(code).toBe(0);
  }, 60_000);

  it('JSON answers: asked alike (the answer lost at the load balancer), the same hazard, never not applicable', async () => {
    const { row } = await once(`${ORDERS.serve} --json`);
    expect(row.plan).toBe('response-lost at request 1');
    expect(row.evidence).toMatch(/^response-lost on req 1 tools\/call → 502/);
    expect(row.verdict).toBe('protocol hazard');
  }, 60_000);
});

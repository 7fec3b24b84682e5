// The protocol's hazards apart from the server's defects (issue 37 item 5), on a real server on
// loopback (the order desk, SDK v2, 2026-07-28): a call whose answer is lost makes the client
// re-issue it, and the server, given no idempotency key by the revision, books the order twice. That
// is a `protocol hazard` naming the closed SEP-3182, never `silent`, and it is asked of a server that
// answers with SSE (its stream cut) and of one that answers with JSON (its answer lost) alike.
import { describe, expect, it } from 'vitest';
import { run } from '../../cli/run.ts';

const ORDERS = 'node test/fixtures/servers/orders-server.mjs --port {port}';
const CALLS = [
  '--call',
  'search_orders',
  '--args',
  '{"customer":"ada"}',
  '--call',
  'place_order',
  '--args',
  '{"customer":"ada","item":"tea"}',
];

async function once(serve: string): Promise<{ code: number; row: { verdict: string; why: string; plan: string; evidence: string } }> {
  process.env.ORDERS_TOKEN = 'tok-hazard-77e';
  process.env.ORDERS_AUTH = 'Bearer tok-hazard-77e';
  try {
    const r = await run(
      'audit',
      '--json',
      '--quiet',
      '--serve',
      serve,
      ...CALLS,
      '--header-env',
      'Authorization=ORDERS_AUTH',
      '--only',
      'cut-reissue-once',
    );
    expect(r.stderr).toBe('');
    return { code: r.code, row: JSON.parse(r.stdout).scenarios[0] };
  } finally {
    delete process.env.ORDERS_TOKEN;
    delete process.env.ORDERS_AUTH;
  }
}

describe('a duplicate the revision gives the server no way to prevent', () => {
  it('SSE answers: the stream cut, the call re-issued and booked twice: protocol hazard (SEP-3182), exit 0', async () => {
    const { code, row } = await once(ORDERS);
    expect(row.plan).toBe('stream-cut at request 1');
    expect(row.verdict).toBe('protocol hazard');
    expect(row.why).toMatch(
      /^at-most-once: call 1's side-effecting tool ran 2 times.*no idempotency key \(the closed SEP-3182 proposed one\)$/,
    );
    expect(code).toBe(0);
  }, 60_000);

  it('JSON answers: asked alike (the answer lost at the load balancer), the same hazard, never not applicable', async () => {
    const { row } = await once(`${ORDERS} --json`);
    expect(row.plan).toBe('response-lost at request 1');
    expect(row.evidence).toMatch(/^response-lost on req 1 tools\/call → 502/);
    expect(row.verdict).toBe('protocol hazard');
  }, 60_000);
});

// Probes that decide (issue 37 item 4), against real servers on loopback: two callers under one
// JSON-RPC id ask different things (a tools/call, a tools/list), so their answers are told apart
// whatever the tool answers (here `tick`, whose answer changes at every call), are in flight together,
// and each is compared with what its own caller asked; close-cancels on a server that holds the
// response head until the result closes the call before its head and decides, where a close after
// the head can only say "name a slower tool".
import { describe, expect, it } from 'vitest';
import { run } from '../../cli/run.ts';

const FRAMING = 'node test/fixtures/servers/framing-server.mjs --port {port}';
const ORDERS_HELD = 'node test/fixtures/servers/orders-server.mjs --port {port} --hold-head';

type Row = { name: string; verdict: string; why: string; evidence: string; spec: { checks: { verdict: string; evidence: string }[] } };

async function rows(...argv: string[]): Promise<Map<string, Row>> {
  const r = await run('audit', '--json', '--quiet', ...argv);
  expect(r.stderr).toBe('');
  return new Map((JSON.parse(r.stdout) as { scenarios: Row[] }).scenarios.map((s) => [s.name, s]));
}

describe('probes that decide', () => {
  it('two-callers-one-id: a tool whose answer changes at every call is judged, each caller against what it asked, in flight together', async () => {
    const a = await rows('--serve', FRAMING, '--call', 'tick', '--only', 'two-callers-one-id');
    const row = a.get('two-callers-one-id')!;
    expect(row.verdict).toBe('pass');
    expect(row.evidence).toMatch(/caller 1 \(tools\/call tick\) HTTP 200 text\/event-stream its own tools\/call result/);
    expect(row.evidence).toMatch(/caller 2 \(tools\/list\) HTTP 200 text\/event-stream its own tools\/list result/);
    expect(row.evidence).toMatch(/in flight together/);
    expect(row.spec.checks.map((c) => c.verdict)).toEqual(['conforms']);
  }, 60_000);

  it('two-callers-one-id with --slow-call: the slow tool holds caller 1 in flight while caller 2 asks', async () => {
    const a = await rows(
      '--serve',
      FRAMING,
      '--call',
      'echo',
      '--args',
      '{"text":"a"}',
      '--slow-call',
      'slow_echo',
      '--args',
      '{"text":"b"}',
      '--only',
      'two-callers-one-id',
    );
    expect(a.get('two-callers-one-id')!.evidence).toMatch(
      /caller 1 \(tools\/call slow_echo\).* in flight together \(caller 2 was sent before/,
    );
  }, 60_000);

  it('close-cancels on a server that holds the head until the result: closed before the head, and decided', async () => {
    process.env.ORDERS_TOKEN = 'tok-held-head-3c1';
    process.env.ORDERS_AUTH = 'Bearer tok-held-head-3c1';
    try {
      const a = await rows(
        '--serve',
        ORDERS_HELD,
        '--revision',
        'dual',
        '--call',
        'search_orders',
        '--args',
        '{"customer":"ada"}',
        '--slow-call',
        'place_warehouse_order',
        '--args',
        '{"customer":"ada","item":"tea"}',
        '--header-env',
        'Authorization=ORDERS_AUTH',
        '--only',
        'close-cancels',
      );
      const check = a.get('close-cancels')!.spec.checks[0]!;
      expect(check.evidence).toMatch(/^the server holds the head until the result: a place_warehouse_order call closed before its head/);
      // The SDK v2 aborts the call when its connection closes, and the tool heeds the abort.
      expect(check.verdict).toBe('conforms');
    } finally {
      delete process.env.ORDERS_TOKEN;
      delete process.env.ORDERS_AUTH;
    }
  }, 90_000);

  it('close-cancels without --slow-call is not tested, naming the flag (never not applicable)', async () => {
    process.env.ORDERS_TOKEN = 'tok-held-head-3c1';
    process.env.ORDERS_AUTH = 'Bearer tok-held-head-3c1';
    try {
      const a = await rows(
        '--serve',
        ORDERS_HELD,
        '--revision',
        'dual',
        '--call',
        'search_orders',
        '--args',
        '{"customer":"ada"}',
        '--header-env',
        'Authorization=ORDERS_AUTH',
        '--only',
        'close-cancels',
      );
      expect(a.get('close-cancels')!).toMatchObject({ verdict: 'not tested', why: expect.stringMatching(/--slow-call NAME --args JSON/) });
    } finally {
      delete process.env.ORDERS_TOKEN;
      delete process.env.ORDERS_AUTH;
    }
  }, 60_000);
});

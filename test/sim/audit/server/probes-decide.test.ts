// Probes that decide (issue 37 item 4), against real servers on loopback: two callers under one
// JSON-RPC id ask different things (a tools/call, a tools/list), so their answers are told apart
// whatever the tool answers (here `tick`, whose answer changes at every call), are in flight together,
// and each is compared with what its own caller asked; close-cancels on a server that holds the
// response head until the result closes the call before its head and decides, where a close after
// the head can only say "name a slower tool".
import { describe, expect, it } from 'vitest';
import { auditJson } from '../../../fixtures/audit-cli.ts';
import { FRAMING, FRAMING_ECHO, ORDERS, withOrdersToken } from '../../../fixtures/servers.ts';

const ORDERS_HELD = `${ORDERS.serve} --hold-head`;

type Row = { name: string; verdict: string; why: string; evidence: string; spec: { checks: { verdict: string; evidence: string }[] } };

async function rows(...argv: string[]): Promise<Map<string, Row>> {
  const a = await auditJson<{ scenarios: Row[] }>(...argv);
  return new Map(a.scenarios.map((s) => [s.name, s]));
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
      ...FRAMING_ECHO,
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
    const a = await withOrdersToken('tok-held-head-3c1', () =>
      rows('--serve', ORDERS_HELD, '--revision', 'dual', ...ORDERS.read, ...ORDERS.slow, ...ORDERS.auth, '--only', 'close-cancels'),
    );
    const check = a.get('close-cancels')!.spec.checks[0]!;
    expect(check.evidence).toMatch(/^the server holds the head until the result: a place_warehouse_order call closed before its head/);
    // The SDK v2 aborts the call when its connection closes, and the tool heeds the abort.
    expect(check.verdict).toBe('conforms');
  }, 90_000);

  it('close-cancels without --slow-call is not tested, naming the flag (never not applicable)', async () => {
    const a = await withOrdersToken('tok-held-head-3c1', () =>
      rows('--serve', ORDERS_HELD, '--revision', 'dual', ...ORDERS.read, ...ORDERS.auth, '--only', 'close-cancels'),
    );
    expect(a.get('close-cancels')!).toMatchObject({ verdict: 'not tested', why: expect.stringMatching(/--slow-call NAME --args JSON/) });
  }, 60_000);
});

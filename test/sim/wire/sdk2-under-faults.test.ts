// The official SDK v2 (@modelcontextprotocol/client and server 2.4) in-process, in both revisions
// it speaks, under fault: what its client and server do, pinned. Deadlines are the SDK's own 60 s,
// on virtual time: these tests take milliseconds of wall clock.
import { describe, expect, it } from 'vitest';
import { callOutcomes, referenceOf } from '../../../properties/outcomes.ts';
import type { History } from '../../../sim/core/history.ts';
import { call } from '../../../sim/core/workload.ts';
import { runWire } from '../../../sim/wire/world.ts';
import type { WireSetup } from '../../../sim/wire/setup.ts';
import type { Sdk2ClientProtocol } from '../../../sim/wire/peers/sdk2-client.ts';
import type { Sdk2ServerPreset, Sdk2ServerProtocol } from '../../../sim/wire/peers/sdk2-server.ts';

const v2 = (client: Sdk2ClientProtocol, preset: Sdk2ServerPreset, server: Sdk2ServerProtocol): WireSetup => ({
  client: { kind: 'sdk2', protocol: client },
  server: { kind: 'sdk2', preset, protocol: server },
});
const LEGACY_SSE = v2('2025-11-25', 'sdk2-sse', '2025-11-25');
const MODERN_SSE = v2('2026-07-28', 'sdk2-sse', '2026-07-28');
const MODERN_JSON = v2('2026-07-28', 'sdk2-json', '2026-07-28');

type Entry = History['entries'][number];
const ends = (h: History) => h.entries.filter((e): e is Extract<Entry, { kind: 'end' }> => e.kind === 'end');
const requests = (h: History) => h.entries.filter((e): e is Extract<Entry, { kind: 'request' }> => e.kind === 'request');
const finished = (h: History, callId: number) =>
  h.entries.filter((e) => e.kind === 'server' && e.note === 'call-finished' && e.callId === callId).length;
async function outcomes(setup: WireSetup, plan: History['plan'], workload = [call()]) {
  const reference = referenceOf(await runWire(setup, { workload, plan: [] }));
  const h = await runWire(setup, { workload, plan });
  return { h, outcomes: callOutcomes(h, reference).map((o) => o.outcome) };
}

describe('SDK v2 client × SDK v2 server, fault-free, in each revision', () => {
  it('2025-11-25: initialize, a session id on every later request, content by SSE or JSON per preset', async () => {
    for (const [preset, type] of [
      ['sdk2-sse', 'text/event-stream'],
      ['sdk2-json', 'application/json'],
    ] as const) {
      const h = await runWire(v2('2025-11-25', preset, '2025-11-25'), { workload: [call(), call(true)], plan: [] });
      expect(ends(h).map((e) => e.end === 'result' && e.content[0]!.text)).toEqual([
        'work result for call 0',
        'progress result for call 1',
      ]);
      const rpcs = requests(h).map((r) => r.rpc);
      expect(rpcs.slice(0, 2)).toEqual(['initialize', 'notifications/initialized']);
      const call0 = requests(h).find((r) => r.rpc === 'tools/call')!;
      expect(call0.headers['mcp-session-id']).toBe('sdk2-1');
      expect(h.entries.find((e) => e.kind === 'response' && e.req === call0.req)).toMatchObject({ status: 200, contentType: type });
    }
  });

  it('2026-07-28: server/discover, then sessionless calls with the revision and method headers; no initialize', async () => {
    for (const [setup, type] of [
      [MODERN_SSE, 'text/event-stream'],
      [MODERN_JSON, 'application/json'],
    ] as const) {
      const h = await runWire(setup, { workload: [call(), call(true)], plan: [] });
      expect(ends(h).map((e) => e.end === 'result' && e.content[0]!.text)).toEqual([
        'work result for call 0',
        'progress result for call 1',
      ]);
      expect(requests(h).map((r) => r.rpc)).toEqual(['server/discover', 'tools/call', 'tools/call']);
      for (const r of requests(h)) expect(r.headers['mcp-session-id']).toBeUndefined();
      expect(requests(h)[1]!.headers).toMatchObject({
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'work',
      });
      expect(h.entries.find((e) => e.kind === 'response' && e.req === 1)).toMatchObject({
        status: 200,
        contentType: type,
        sessionId: null,
      });
    }
  });
});

describe('mixed revisions', () => {
  it('a 2025-11-25 client against a 2026-07-28 server fails loudly: initialize 400, the SSE fallback GET 405', async () => {
    const r = await outcomes(v2('2025-11-25', 'sdk2-sse', '2026-07-28'), []);
    expect(r.outcomes).toEqual(['error']);
    const statuses = r.h.entries.flatMap((e) => (e.kind === 'response' ? [e.status] : []));
    expect(statuses.slice(0, 2)).toEqual([400, 405]);
    expect(ends(r.h)[0]).toMatchObject({ end: 'error', reason: expect.stringMatching(/could not connect with either transport/) });
  });

  it('a client pinned to 2026-07-28 against a 2025-11-25 server fails loudly at server/discover, with no fallback', async () => {
    const r = await outcomes(v2('2026-07-28', 'sdk2-json', '2025-11-25'), []);
    expect(r.outcomes).toEqual(['error']);
    expect(new Set(requests(r.h).map((q) => q.rpc))).toEqual(new Set(['server/discover']));
    expect(ends(r.h)[0]).toMatchObject({ reason: expect.stringMatching(/Version negotiation failed/) });
  });

  it('negotiate falls back to initialize on a legacy server, and speaks 2026-07-28 to a dual one', async () => {
    const legacy = await runWire(v2('negotiate', 'sdk2-sse', '2025-11-25'), { workload: [call()], plan: [] });
    expect(
      requests(legacy)
        .map((r) => r.rpc)
        .slice(0, 2),
    ).toEqual(['server/discover', 'initialize']);
    expect(ends(legacy)[0]).toMatchObject({ end: 'result' });
    const dual = await runWire(v2('negotiate', 'sdk2-sse', 'dual'), { workload: [call()], plan: [] });
    expect(requests(dual).map((r) => r.rpc)).toEqual(['server/discover', 'tools/call']);
  });

  it('a dual server opens a session for a 2025-11-25 client', async () => {
    const h = await runWire(v2('2025-11-25', 'sdk2-json', 'dual'), { workload: [call()], plan: [] });
    expect(requests(h)[0]!.rpc).toBe('initialize');
    expect(requests(h).find((r) => r.rpc === 'tools/call')!.headers['mcp-session-id']).toBe('sdk2-1');
    expect(ends(h)[0]).toMatchObject({ end: 'result' });
  });
});

describe('a cut SSE stream, in each revision', () => {
  it('2025-11-25 keeps the v1 behaviour: the call waits the full 60 s; both attempts cut is silent-hang', async () => {
    const once = await outcomes(LEGACY_SSE, [{ fault: 'stream-cut', at: 3 }]);
    expect(once.outcomes).toEqual(['ok']);
    expect(ends(once.h)[0]!.t).toBeGreaterThanOrEqual(60_000);
    const twice = await outcomes(LEGACY_SSE, [
      { fault: 'stream-cut', at: 3 },
      { fault: 'stream-cut', at: 5 },
    ]);
    expect(twice.outcomes).toEqual(['silent-hang']);
    expect(ends(twice.h)[0]).toMatchObject({ end: 'deadline', answer: 'lost', serverFinished: true });
  });

  it('2026-07-28 too: a stream that ends without the answer leaves the call pending for 60 s (the spec says re-issue)', async () => {
    const once = await outcomes(MODERN_SSE, [{ fault: 'stream-cut', at: 1 }]);
    expect(once.outcomes).toEqual(['ok']);
    expect(ends(once.h)[0]).toMatchObject({ attempts: 2 });
    expect(ends(once.h)[0]!.t).toBeGreaterThanOrEqual(60_000);
    expect(once.h.entries.find((e) => e.kind === 'client' && e.note === 'attempt-failed')).toMatchObject({
      reason: 'SdkError: Request timed out',
    });
    // The agent's re-issue ran the tool a second time: a duplicate the agent never hears of.
    expect(finished(once.h, 0)).toBe(2);
    const twice = await outcomes(MODERN_SSE, [
      { fault: 'stream-cut', at: 1 },
      { fault: 'stream-cut', at: 2 },
    ]);
    expect(twice.outcomes).toEqual(['silent-hang']);
    expect(ends(twice.h)[0]).toMatchObject({ end: 'deadline', answer: 'lost', serverFinished: true });
    expect(finished(twice.h, 0)).toBe(2);
  });
});

describe('2026-07-28 faults', () => {
  it('a stripped MCP-Protocol-Version is 400 -32020, and the SDK client itself refetches tools/list and re-sends the call', async () => {
    const r = await outcomes(MODERN_JSON, [{ fault: 'strip-header:mcp-protocol-version', at: 1 }]);
    expect(r.outcomes).toEqual(['ok']);
    expect(r.h.entries.find((e) => e.kind === 'response' && e.req === 1)).toMatchObject({ status: 400 });
    expect(requests(r.h).map((q) => q.rpc)).toEqual(['server/discover', 'tools/call', 'tools/list', 'tools/call']);
    // The SDK's own re-send, inside one agent attempt: the server never ran the rejected request.
    expect(ends(r.h)[0]).toMatchObject({ attempts: 1 });
    expect(finished(r.h, 0)).toBe(1);
  });

  it('session-expire is skipped against a 2026-07-28 server, and says why', async () => {
    const r = await outcomes(MODERN_SSE, [{ fault: 'session-expire', at: 1 }]);
    expect(r.outcomes).toEqual(['ok']);
    expect(r.h.entries.find((e) => e.kind === 'fault')).toMatchObject({
      applied: false,
      detail: 'skipped: a 2026-07-28 server keeps no sessions',
    });
  });

  it('a restart has nothing to forget: the next call is served', async () => {
    const r = await outcomes(MODERN_SSE, [{ fault: 'server-restart', at: 2 }], [call(), call()]);
    expect(r.outcomes).toEqual(['ok', 'ok']);
    expect(r.h.entries.find((e) => e.kind === 'fault')).toMatchObject({ applied: false, detail: 'no live session to forget' });
  });

  it('a 502 on the call: rejected at once, re-issued with a new JSON-RPC id', async () => {
    const r = await outcomes(MODERN_JSON, [{ fault: 'http-502', at: 1 }]);
    expect(r.outcomes).toEqual(['ok']);
    expect(ends(r.h)[0]).toMatchObject({ attempts: 2 });
    expect(ends(r.h)[0]!.t).toBeLessThan(100);
  });
});

describe('2025-11-25 faults', () => {
  it('an expired session is 404 and the agent opens a new one; a restart the same', async () => {
    for (const fault of ['session-expire', 'server-restart'] as const) {
      const r = await outcomes(LEGACY_SSE, [{ fault, at: 3 }]);
      expect(r.outcomes).toEqual(['ok']);
      expect(r.h.entries.some((e) => e.kind === 'response' && e.status === 404)).toBe(true);
      expect(r.h.entries.some((e) => e.kind === 'client' && e.note === 'reconnect')).toBe(true);
    }
  });
});

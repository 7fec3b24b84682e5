// The official SDK in-process under fault: what its client and server do, pinned. Deadlines are
// the SDK's own 60 s, on virtual time: these tests take milliseconds of wall clock.
import { describe, expect, it } from 'vitest';
import { combination } from '../../../models/policies.ts';
import { callOutcomes, referenceOf } from '../../../properties/outcomes.ts';
import type { History } from '../../../sim/core/history.ts';
import { wireCheck } from '../../../sim/wire/check.ts';
import { runWire } from '../../../sim/wire/world.ts';
import type { WireSetup } from '../../../sim/wire/setup.ts';
import { call } from '../../../sim/core/workload.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

const SDK_SSE: WireSetup = { client: { kind: 'sdk' }, server: { kind: 'sdk', preset: 'sdk-sse' } };
const SDK_JSON: WireSetup = { client: { kind: 'sdk' }, server: { kind: 'sdk', preset: 'sdk-json' } };
const ends = (h: History) => h.entries.filter((e) => e.kind === 'end');
async function outcomes(setup: WireSetup, plan: History['plan'], workload = [call()]) {
  const reference = referenceOf(await runWire(setup, { workload, plan: [] }));
  const h = await runWire(setup, { workload, plan });
  return { h, outcomes: callOutcomes(h, reference).map((o) => o.outcome) };
}

describe('official SDK client × SDK server', () => {
  it('answers calls with non-empty content, by SSE or JSON per preset', async () => {
    for (const [setup, type] of [
      [SDK_SSE, 'text/event-stream'],
      [SDK_JSON, 'application/json'],
    ] as const) {
      const h = await runWire(setup, { workload: [call(), call(true)], plan: [] });
      expect(ends(h).map((e) => e.kind === 'end' && e.end === 'result' && e.content[0]!.text)).toEqual([
        'work result for call 0',
        'progress result for call 1',
      ]);
      const callResponse = h.entries.find((e) => e.kind === 'response' && e.req === 3);
      expect(callResponse).toMatchObject({ status: 200, contentType: type });
    }
  });

  it('a cut SSE stream leaves the call waiting for the full 60 s timeout, with no error, though the server answered', async () => {
    // One cut: the retry succeeds, after the SDK's own 60 s deadline (virtual).
    const once = await outcomes(SDK_SSE, [{ fault: 'stream-cut', at: 3 }]);
    expect(once.outcomes).toEqual(['ok']);
    expect(ends(once.h)[0]!.t).toBeGreaterThanOrEqual(60_000);
    // Both attempts cut: silent-hang (the answer was lost in the network without a signal).
    const twice = await outcomes(SDK_SSE, [
      { fault: 'stream-cut', at: 3 },
      { fault: 'stream-cut', at: 5 },
    ]);
    expect(twice.outcomes).toEqual(['silent-hang']);
    expect(ends(twice.h)[0]).toMatchObject({ end: 'deadline', answer: 'lost', serverFinished: true });
  });

  it('the JSON preset has no stream to cut', async () => {
    const r = await outcomes(SDK_JSON, [{ fault: 'stream-cut', at: 3 }]);
    expect(r.outcomes).toEqual(['ok']);
    expect(r.h.entries.find((e) => e.kind === 'fault')).toMatchObject({ applied: false, detail: 'no complete SSE stream to cut' });
  });

  it('a 502 on the call rejects at once and the retry succeeds; an expired session is 404 and a new session heals it', async () => {
    const lb = await outcomes(SDK_SSE, [{ fault: 'http-502', at: 3 }]);
    expect(lb.outcomes).toEqual(['ok']);
    expect(ends(lb.h)[0]!.t).toBeLessThan(100);
    const expired = await outcomes(SDK_SSE, [{ fault: 'session-expire', at: 3 }]);
    expect(expired.outcomes).toEqual(['ok']);
    expect(expired.h.entries.some((e) => e.kind === 'response' && e.status === 404)).toBe(true);
    expect(expired.h.entries.some((e) => e.kind === 'client' && e.note === 'reconnect')).toBe(true);
  });

  it('a failed Streamable HTTP connect falls back to SSEClientTransport, which finds no legacy endpoint', async () => {
    const r = await outcomes(SDK_SSE, [{ fault: 'strip-header:accept', at: 0 }]);
    expect(r.h.entries.find((e) => e.kind === 'response' && e.req === 0)).toMatchObject({ status: 406 });
    expect(r.h.entries.some((e) => e.kind === 'client' && e.note === 'fallback')).toBe(true);
    expect(r.h.entries.find((e) => e.kind === 'request' && e.req === 1)).toMatchObject({ method: 'GET' });
    expect(r.outcomes).toEqual(['ok']); // the retry connects anew
  });

  it('config-reset is skipped against the SDK client, and says so', async () => {
    const r = await outcomes(SDK_SSE, [{ fault: 'config-reset', at: 2 }]);
    expect(r.h.entries.find((e) => e.kind === 'fault')).toMatchObject({
      applied: false,
      detail: 'skipped: this client has no mutable config',
    });
  });
});

describe('model client × SDK server, SDK client × model server', () => {
  it("the records' pinned parser cannot read the SDK's SSE answers: loud on every call, even without faults", async () => {
    const setup: WireSetup = {
      client: { kind: 'model', policy: combination({}, NO_ADDITIONS).client },
      server: { kind: 'sdk', preset: 'sdk-sse' },
    };
    const r = await wireCheck(setup, { runs: 15, faults: ['http-502'] });
    const ct = r.results.find((p) => p.property === 'content-type-consistent')!;
    expect(ct.verdict).toBe('violated');
    expect(ct.counterexample!.faults).toEqual([]);
    expect(r.results[0]!.outcomes.ok).toBe(0);
  });

  it('the SDK rejects a replayed initialize (400, -32600): the record-000 client then has a dead session, loudly', async () => {
    const setup: WireSetup = {
      client: { kind: 'model', policy: combination({}, NO_ADDITIONS).client },
      server: { kind: 'sdk', preset: 'sdk-json' },
    };
    const r = await outcomes(setup, [
      { fault: 'config-reset', at: 0 },
      { fault: 'http-502', at: 2 },
    ]);
    expect(r.outcomes).toEqual(['error']);
    expect(r.h.entries.some((e) => e.kind === 'server' && e.note === 'reinit-rejected')).toBe(true);
  });

  it('the SDK client against the record-000 model server is not silent: it keeps no mutable config to reset', async () => {
    const setup: WireSetup = { client: { kind: 'sdk' }, server: { kind: 'model', policy: combination({}, NO_ADDITIONS).server } };
    const r = await wireCheck(setup, { runs: 40, faults: ['http-502', 'config-reset'] });
    expect(r.results.find((p) => p.property === 'no-silent-empty')!.verdict).toBe('holds');
    expect(r.skipped['config-reset']).toMatch(/no mutable config/);
  });
});

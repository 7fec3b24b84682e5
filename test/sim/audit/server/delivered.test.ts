// Duplicate execution judged from the traffic alone: one agent call's side-effecting tools/call
// accepted by the server twice; a refusal (404 after a restart) or a load balancer's 502 never ran.
import { describe, expect, it } from 'vitest';
import type { History, HistoryEntry } from '../../../../sim/core/history.ts';
import { deliveredTwice } from '../../../../sim/audit/server/delivered.ts';

const request = (req: number, callId: number): HistoryEntry => ({
  t: 0,
  kind: 'request',
  req,
  method: 'POST',
  rpc: 'tools/call',
  headers: {},
  callId,
});
const response = (req: number, status: number, from: 'server' | 'load-balancer' = 'server'): HistoryEntry => ({
  t: 0,
  kind: 'response',
  req,
  status,
  contentType: 'text/event-stream',
  sessionId: null,
  body: 'sse',
  deliverAt: 0,
  from,
});
const history = (entries: HistoryEntry[], idempotent = false): History =>
  ({
    entries: [
      { t: 0, kind: 'invoke', callId: 1, method: 'tools/call', progress: false, ...(idempotent ? { idempotent } : {}) },
      ...entries,
    ],
  }) as History;

describe('deliveredTwice', () => {
  it('a call accepted twice by the server ran twice', () => {
    const h = history([request(2, 1), response(2, 200), request(3, 1), response(3, 200)]);
    expect(deliveredTwice(h)).toMatch(/^call 1's side-effecting tools\/call reached the server and was accepted 2 times \(requests 2, 3\)/);
  });

  it("a refusal or the load balancer's answer is no run", () => {
    expect(deliveredTwice(history([request(2, 1), response(2, 404), request(3, 1), response(3, 200)]))).toBeNull();
    expect(deliveredTwice(history([request(2, 1), response(2, 502, 'load-balancer'), request(3, 1), response(3, 200)]))).toBeNull();
  });

  it('an idempotent call may run again', () => {
    expect(deliveredTwice(history([request(2, 1), response(2, 200), request(3, 1), response(3, 200)], true))).toBeNull();
  });
});

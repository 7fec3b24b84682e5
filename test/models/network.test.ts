import { describe, expect, it } from 'vitest';
import { FAULT_FAMILIES } from '../../models/faults.ts';
import { applyRequestFaults, applyResponseFaults, ruleOf } from '../../models/network.ts';
import { selectTransport } from '../../models/transport.ts';
import type { HttpRequest, HttpResponse } from '../../models/messages.ts';
import { NO_ADDITIONS } from '../../models/additions.ts';

const post: HttpRequest = {
  method: 'POST',
  headers: { accept: 'application/json, text/event-stream', 'transfer-encoding': 'chunked', 'mcp-session-id': 's1' },
  body: { rpc: 'initialize', capabilities: ['tools'], transport: 'streamable-http' },
};
const stream: HttpResponse = {
  status: 200,
  headers: { 'content-type': 'text/event-stream' },
  body: {
    kind: 'sse',
    complete: true,
    events: [
      { id: 'a:0', event: 'progress', data: { progressToken: 'p', progress: 50 } },
      { id: 'a:1', event: 'message', data: { result: { content: [] } } },
    ],
  },
};

describe('request faults', () => {
  it('a 502 answers the request at the load balancer', () => {
    const v = applyRequestFaults(post, ['http-502'], NO_ADDITIONS);
    expect(v.answer?.status).toBe(502);
    expect(v.effects).toEqual([{ fault: 'http-502', applied: true, detail: expect.stringContaining('502') }]);
  });
  it('strip-header removes the header, and says so when there was none', () => {
    const v = applyRequestFaults(post, ['strip-header:mcp-session-id', 'strip-header:last-event-id'], NO_ADDITIONS);
    expect(v.request.headers).not.toHaveProperty('mcp-session-id');
    expect(v.request.headers).toHaveProperty('accept');
    expect(v.effects.map((e) => e.applied)).toEqual([true, false]);
    expect(post.headers).toHaveProperty('mcp-session-id'); // the original is untouched
  });
});

describe('response faults', () => {
  it('stream-cut ends the stream before its final event and loses the answer', () => {
    const v = applyResponseFaults(stream, ['stream-cut'], 'server', NO_ADDITIONS);
    expect(v.response.body).toEqual({ kind: 'sse', complete: false, events: [stream.body.kind === 'sse' ? stream.body.events[0] : null] });
    expect(v.lostAnswer).toBe(true);
  });
  it('stream-cut has no effect on a JSON body', () => {
    const json: HttpResponse = {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { kind: 'json', message: { result: { content: [] } } },
    };
    const v = applyResponseFaults(json, ['stream-cut'], 'server', NO_ADDITIONS);
    expect(v.response).toBe(json);
    expect(v.effects[0]!.applied).toBe(false);
  });
  it('delays add up', () => {
    expect(applyResponseFaults(stream, ['delay:1000', 'delay:40000'], 'server', NO_ADDITIONS).delayMs).toBe(41000);
  });
});

describe('transport selection (record 003)', () => {
  it('a stripped transfer-encoding on an initialize POST forces the SSE fallback', () => {
    const stripped = applyRequestFaults(post, ['strip-header:transfer-encoding'], NO_ADDITIONS).request;
    expect(selectTransport(post, 'streamable-http', null)).toBe('streamable-http');
    expect(selectTransport(stripped, 'streamable-http', null)).toBe('sse');
  });
  it('also moves a live session, and a session never comes back from SSE', () => {
    const stripped = applyRequestFaults(post, ['strip-header:transfer-encoding'], NO_ADDITIONS).request;
    expect(selectTransport(stripped, 'streamable-http', 'streamable-http')).toBe('sse');
    expect(selectTransport(post, 'streamable-http', 'sse')).toBe('sse');
  });
});

describe('one rule per fault family', () => {
  it('a family fires before a request exactly when its rule reaches in before one, and every family has a rule', () => {
    for (const family of FAULT_FAMILIES) {
      for (const fault of family.instances) {
        const rule = ruleOf(fault, NO_ADDITIONS);
        expect(rule, fault).toBeDefined();
        expect(rule!.before !== undefined, fault).toBe(family.when === 'before');
        expect(rule!.onRequest !== undefined || rule!.onResponse !== undefined, fault).toBe(family.when === 'at');
      }
    }
  });
});

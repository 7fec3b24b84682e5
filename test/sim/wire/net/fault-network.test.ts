// The fault network's path where no fault fires at a request (wire/net/fault-network.ts): what the
// server behind it is handed, and what passes back to the client, called directly on real
// Request/Response objects (no msw: the network's resolver is a plain function of a Request).
import { describe, expect, it } from 'vitest';
import type { FaultPlan } from '../../../../sim/core/plan.ts';
import { FaultNetwork } from '../../../../sim/wire/net/fault-network.ts';
import { REQ_HEADER } from '../../../../sim/wire/protocol/wire-headers.ts';
import { META_CALL } from '../../../../sim/wire/protocol/json-rpc.ts';
import { Recorder } from '../../../../sim/wire/protocol/recorder.ts';
import type { ServerAdapter } from '../../../../sim/wire/net/server-adapter.ts';
import { sseBody } from '../../../../sim/wire/protocol/sse.ts';
import { VirtualTime } from '../../../../sim/wire/protocol/virtual-time.ts';
import { NO_ADDITIONS } from '../../../../models/additions.ts';

interface Handed {
  parsedBody: unknown;
  body: string | null;
  req: string | null;
}

/** A server that answers every request with one SSE event carrying a result, and keeps what it was handed. */
class RecordingServer implements ServerAdapter {
  readonly name = 'recording';
  readonly notesItself = false;
  readonly handed: Handed[] = [];
  constructor(readonly takesParsedBody: boolean) {}
  cannot(): null {
    return null;
  }
  async handle(request: Request, _n: number, parsedBody?: unknown): Promise<Response> {
    // Given the parsed body, a server reads no body (as the SDK's transport does not).
    this.handed.push({ parsedBody, body: parsedBody === undefined ? await request.text() : null, req: request.headers.get(REQ_HEADER) });
    const result = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'done' }] } });
    return new Response(sseBody([{ event: 'message', data: result }], false), { headers: { 'content-type': 'text/event-stream' } });
  }
  async expire(): Promise<string[]> {
    return [];
  }
  async restart(): Promise<string[]> {
    return [];
  }
  async close(): Promise<void> {}
}

const call = (callId: number) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'work', _meta: { [META_CALL]: callId } },
});
const post = (json: unknown) =>
  new Request('http://mcp.faultsim.test/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(json),
  });

function network(server: ServerAdapter, plan: FaultPlan = []) {
  const recorder = new Recorder(new VirtualTime());
  return { recorder, network: new FaultNetwork(plan, recorder, server, { configReset: () => false }, 0, NO_ADDITIONS) };
}

describe('the fault network where no fault fires', () => {
  it('hands a server that takes parsed bodies the JSON it parsed; any other server gets the text', async () => {
    for (const takes of [true, false]) {
      const server = new RecordingServer(takes);
      const { network: net } = network(server);
      await (await net.carry(post(call(7)))).text();
      expect(server.handed).toEqual([
        takes ? { parsedBody: call(7), body: null, req: '0' } : { parsedBody: undefined, body: JSON.stringify(call(7)), req: '0' },
      ]);
    }
  });

  it('forwards the text where a fault fires at the request, even to a server that takes parsed bodies', async () => {
    const server = new RecordingServer(true);
    const { network: net } = network(server, [{ fault: 'stream-cut', at: 1 }]);
    await (await net.carry(post(call(0)))).text();
    await (await net.carry(post(call(1)))).text();
    expect(server.handed.map((h) => h.parsedBody === undefined)).toEqual([false, true]);
    expect(server.handed[1]!.body).toBe(JSON.stringify(call(1)));
  });

  it('passes an SSE answer byte for byte, and sees its result pass: the call is finished and the history says so', async () => {
    const server = new RecordingServer(true);
    const { network: net, recorder } = network(server);
    const response = await net.carry(post(call(3)));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    // Nothing is read ahead of the client: the result has not passed the network yet.
    expect(net.serverFinished(0)).toBe(false);
    const text = await response.text();
    expect(text).toBe(
      `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'done' }] } })}\n\n`,
    );
    expect(net.serverFinished(0)).toBe(true);
    expect(net.answer(0)).toBe('delivered');
    expect(recorder.entries.map((e) => e.kind)).toEqual(['request', 'response', 'deliver', 'server']);
    expect(recorder.entries[0]).toMatchObject({ kind: 'request', req: 0, rpc: 'tools/call', callId: 3 });
    expect(recorder.entries[1]).toMatchObject({
      kind: 'response',
      status: 200,
      contentType: 'text/event-stream',
      body: 'sse',
      from: 'server',
    });
    expect(recorder.entries[3]).toMatchObject({ kind: 'server', note: 'call-finished', req: 0, callId: 3 });
  });
});

// The model server (models/server.ts, stepped by the compiled engine) behind a real HTTP handler:
// any fetch-based MCP client can be run against every `server.*` policy. Real JSON-RPC comes in,
// is checked against the SDK's schemas and mapped onto the model's messages (json-rpc.ts); the
// model's answer goes back as real JSON or a real `text/event-stream` body. A model SSE body that
// is not complete (the standalone stream a GET without a usable `Last-Event-ID` opens) stays open.
//
// Framing: msw hands the server a parsed Request, so a body whose `Transfer-Encoding` a proxy
// stripped still arrives whole. The network marks such a request (STRIPPED_HEADER), and this
// adapter shows the model the request as the records' server saw it: a POST without chunked
// framing. A client that never sends chunked bodies (the SDK's fetch sends a Content-Length) is
// shown framed, so the fault does not touch it, as it would not in life.
import type { ServerEffect, ServerEvent } from '../../../models/server.ts';
import type { HttpRequest, HttpResponse } from '../../../models/messages.ts';
import type { ServerPolicy } from '../../../models/policies.ts';
import type { PolicyAdditions } from '../../../models/additions.ts';
import { enginesFor } from '../../world/options.ts';
import { stateName, type Stepper } from '../../world/engine/step.ts';
import { CLOSING_HEADER, STRIPPED_HEADER } from '../protocol/wire-headers.ts';
import { messageToJson, requestFromJson } from '../protocol/json-rpc.ts';
import type { Recorder } from '../protocol/recorder.ts';
import type { ServerAdapter } from '../net/server-adapter.ts';
import { sseBody, type WireEvent } from '../protocol/sse.ts';

const BOOKKEEPING = /^x-faultsim-/;

function jsonError(status: number, code: number, message: string, id: string | number | null = null): Response {
  return Response.json({ jsonrpc: '2.0', id, error: { code, message } }, { status });
}

export class ModelServerHttp implements ServerAdapter {
  readonly name = 'model';
  readonly notesItself = true;
  /** The compiled engine's server, with the run's additions bound (world/options.ts `enginesFor`). */
  private readonly stepper: Stepper<ServerEvent, ServerEffect>;
  private snapshot;
  private state: string;
  /** The JSON-RPC id each SSE stream answers, so a resumed stream replays the right id. */
  private readonly streamIds = new Map<string, string | number | null>();

  constructor(
    policy: ServerPolicy,
    private readonly recorder: Recorder,
    additions: PolicyAdditions,
  ) {
    this.stepper = enginesFor('compiled', additions).server;
    this.snapshot = this.stepper.initial({ policy }).snapshot;
    this.state = stateName(this.snapshot.value);
  }

  cannot(): null {
    return null;
  }

  async handle(request: Request, n: number): Promise<Response> {
    if (request.method !== 'POST' && request.method !== 'GET') {
      return Response.json(
        { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed.' } },
        { status: 405, headers: { allow: 'GET, POST' } },
      );
    }
    const parsed = requestFromJson(request.method, request.method === 'POST' ? await request.text() : '');
    if ('invalid' in parsed) return jsonError(400, -32700, parsed.invalid);
    if (!parsed.body) {
      // What the model does not know: notifications are accepted, requests are unknown methods.
      if (parsed.id === null) return new Response(null, { status: 202 });
      return jsonError(200, -32601, `Method not found: ${parsed.method}`, parsed.id);
    }
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => {
      if (!BOOKKEEPING.test(k)) headers[k] = v;
    });
    if (request.method === 'POST') {
      if (request.headers.get(STRIPPED_HEADER)?.split(/,\s*/).includes('transfer-encoding')) delete headers['transfer-encoding'];
      else headers['transfer-encoding'] = 'chunked';
    }
    const model: HttpRequest = {
      method: request.method,
      headers,
      body: parsed.body,
      ...(request.headers.has(CLOSING_HEADER) ? { closing: true as const } : {}),
    };
    const answer = this.step({ type: 'REQUEST', req: n, request: model }).find((e) => e.type === 'respond' && e.req === n);
    if (!answer || answer.type !== 'respond') return jsonError(500, -32603, 'the model server gave no answer');
    const modern = 'meta' in parsed.body && parsed.body.meta?.protocolVersion === '2026-07-28';
    return this.toResponse(answer.response, parsed.id, modern);
  }

  async expire(sessionId: string | null): Promise<string[]> {
    return this.forgotten(this.step({ type: 'EXPIRE', sessionId }));
  }

  async restart(): Promise<string[]> {
    return this.forgotten(this.step({ type: 'RESTART' }));
  }

  async close(): Promise<void> {
    // Open streams end when the client side of the run is closed (its fetches are aborted).
  }

  private forgotten(effects: ServerEffect[]): string[] {
    return effects.flatMap((e) => (e.type === 'note' && e.note.note === 'session-forgotten' ? [e.note.session] : []));
  }

  /** Step the machine, recording its state changes and notes as the model world does. */
  private step(event: ServerEvent): ServerEffect[] {
    const { snapshot, effects } = this.stepper.step(this.snapshot, event);
    this.snapshot = snapshot;
    const to = stateName(snapshot.value);
    if (to !== this.state) this.recorder.record({ kind: 'state', machine: 'server', from: this.state, to });
    this.state = to;
    for (const e of effects) if (e.type === 'note') this.recorder.record({ kind: 'server', ...e.note });
    return effects;
  }

  private toResponse(res: HttpResponse, id: string | number | null, modern: boolean): Response {
    // The model server's answer to a request whose connection closed: there is nothing to send.
    if (res.status === 0) return Response.error();
    const body = res.body;
    if (body.kind === 'empty') return new Response(null, { status: res.status, headers: res.headers });
    if (body.kind === 'json')
      return new Response(JSON.stringify(messageToJson(body.message, id, modern)), { status: res.status, headers: res.headers });
    const events: WireEvent[] = body.events.map((e) => {
      const stream = e.id.slice(0, e.id.lastIndexOf(':'));
      if (!this.streamIds.has(stream)) this.streamIds.set(stream, id);
      const data = e.event === 'message' ? messageToJson(e.data as never, this.streamIds.get(stream)!, modern) : e.data;
      return { id: e.id, event: e.event, data: JSON.stringify(data) };
    });
    return new Response(sseBody(events, !body.complete), { status: res.status, headers: res.headers });
  }
}

// The model client (models/client.ts, stepped by the compiled engine) speaking real HTTP: its
// requests become real JSON-RPC over `fetch` (json-rpc.ts), its answers are real bodies read
// whole — JSON checked against the SDK's schemas, SSE parsed with eventsource-parser — and mapped
// back onto the model's messages. Its deadline timers are (faked) `setTimeout`s. Any MCP endpoint
// can be run against every `client.*` strategy this way.
import type { ClientEffect, ClientEvent } from '../../../models/client-context.ts';
import { finalMessage, isResult, type HttpRequest, type HttpResponse, type RequestBody, type SseEvent } from '../../../models/messages.ts';
import type { ClientPolicy } from '../../../models/policies.ts';
import type { PolicyAdditions } from '../../../models/additions.ts';
import { enginesFor } from '../../world/options.ts';
import { stateName, type Stepper } from '../../world/engine/step.ts';
import type { Workload } from '../../core/workload.ts';
import { Agent } from '../protocol/agent.ts';
import type { FaultNetwork } from '../net/fault-network.ts';
import { CLIENT_REQ_HEADER } from '../protocol/wire-headers.ts';
import { messageFromJson, progressFromJson, requestToJson } from '../protocol/json-rpc.ts';
import type { ToolMap } from '../protocol/tool-maps.ts';
import type { Recorder } from '../protocol/recorder.ts';
import type { ClientHooks } from '../net/server-adapter.ts';
import { carriesResponse, readEvents } from '../protocol/sse.ts';

/** No usable answer (a network error, an unreadable handshake reply): the model reads it as HTTP 0. */
const NETWORK_ERROR: HttpResponse = { status: 0, headers: {}, body: { kind: 'empty' } };

/** A 2026-07-28 call's `Mcp-Name` names the real tool the JSON calls (the model knows only its own names). */
function realToolName(headers: Record<string, string>, json: ReturnType<typeof requestToJson>): Record<string, string> {
  const name = json?.method === 'tools/call' ? json.params?.name : undefined;
  return headers['mcp-name'] !== undefined && typeof name === 'string' ? { 'mcp-name': name } : {};
}

function essence(type: string | null): string {
  return (type ?? '').split(';')[0]!.trim().toLowerCase();
}

export class ModelClientHttp implements ClientHooks {
  /** The compiled engine's client, with the run's additions bound (world/options.ts `enginesFor`). */
  private readonly stepper: Stepper<ClientEvent, ClientEffect>;
  private snapshot;
  private state: string;
  readonly agent: Agent;
  private readonly aborts = new Set<AbortController>();
  private closed = false;
  /** The revision the session's initialize result named (the model's result has no field for it). */
  private negotiated: string | null = null;

  constructor(
    policy: ClientPolicy,
    deadlineMs: number,
    private readonly url: string,
    private readonly tools: ToolMap,
    private readonly recorder: Recorder,
    private readonly network: FaultNetwork,
    workload: Workload,
    additions: PolicyAdditions,
  ) {
    this.stepper = enginesFor('compiled', additions).client;
    this.snapshot = this.stepper.initial({ policy, deadlineMs }).snapshot;
    this.state = stateName(this.snapshot.value);
    this.agent = new Agent(workload, recorder, (callId, step) =>
      this.step({ type: 'CALL', callId, method: step.method, progress: step.progress, ...(step.idempotent ? { idempotent: true } : {}) }),
    );
  }

  start(): void {
    this.step({ type: 'CONNECT' });
    this.agent.start();
  }

  configReset(): boolean {
    this.step({ type: 'CONFIG_RESET' });
    return true;
  }

  /** Calls still open when the run stops: the request each was waiting on (the network's index). */
  pendingRequest(callId: number): { req: number; attempts: number } {
    const inflight = (
      this.snapshot.context as { inflight: Record<number, { attemptId: number; call?: { callId: number; attempt: number } }> }
    ).inflight;
    const f = Object.values(inflight).find((x) => x.call?.callId === callId);
    return { req: f ? this.network.requestOfClientReq(f.attemptId) : -1, attempts: f?.call?.attempt ?? 1 };
  }

  close(): void {
    this.closed = true;
    for (const a of this.aborts) a.abort();
    this.aborts.clear();
  }

  private step(event: ClientEvent): void {
    if (this.closed) return;
    const { snapshot, effects } = this.stepper.step(this.snapshot, event);
    this.snapshot = snapshot;
    const to = stateName(snapshot.value);
    if (to !== this.state) this.recorder.record({ kind: 'state', machine: 'client', from: this.state, to });
    this.state = to;
    for (const effect of effects) this.perform(effect);
  }

  private perform(effect: ClientEffect): void {
    switch (effect.type) {
      case 'send':
        return void this.send(effect.req, effect.request);
      case 'timer':
        return void setTimeout(() => this.step(effect.event), effect.afterMs);
      case 'note':
        return this.recorder.record({ kind: 'client', ...effect.note });
      case 'call-ended': {
        const req = this.network.requestOfClientReq(effect.req);
        if (effect.end === 'deadline') {
          return this.agent.end(effect.callId, effect.attempts, req, {
            end: 'deadline',
            answer: this.network.answer(req),
            serverFinished: this.network.serverFinished(req),
          });
        }
        return this.agent.end(
          effect.callId,
          effect.attempts,
          req,
          effect.end === 'error' ? { end: 'error', reason: effect.reason } : { end: 'result', content: effect.content },
        );
      }
      case 'raise':
        throw new Error('raised events are handled inside the machine step');
    }
  }

  private async send(req: number, request: HttpRequest): Promise<void> {
    const json = requestToJson(request.body, req, this.tools);
    const abort = new AbortController();
    this.aborts.add(abort);
    let response: HttpResponse;
    try {
      const res = await fetch(this.url, {
        method: request.method,
        headers: {
          ...request.headers,
          ...this.versionHeader(request),
          ...realToolName(request.headers, json),
          [CLIENT_REQ_HEADER]: String(req),
        },
        body: json === null ? undefined : JSON.stringify(json),
        signal: abort.signal,
      });
      response = await this.read(res, request.body.rpc);
      // The model takes a 200 initialize reply to carry an InitializeResult; a real one may not (an
      // SSE answer cut before its final event). Such a reply is no answer at all: a failed handshake.
      if (request.body.rpc === 'initialize' && response.status === 200 && !isResult(finalMessage(response))) response = NETWORK_ERROR;
    } catch {
      if (abort.signal.aborted) return;
      response = NETWORK_ERROR;
    } finally {
      this.aborts.delete(abort);
    }
    this.step({ type: 'RESPONSE', req, response });
  }

  /** 2025-11-25 Protocol Version Header: the model names its own revision after initialize; a real
   *  server may have negotiated another (2025-06-18), and that is the one a client MUST name. */
  private versionHeader(request: HttpRequest): Record<string, string> {
    const named = request.headers['mcp-protocol-version'];
    if (named === undefined || named === '2026-07-28' || this.negotiated === null || named === this.negotiated) return {};
    return { 'mcp-protocol-version': this.negotiated };
  }

  /** The protocolVersion an initialize result names, raw (the model's InitializeResult has no field for it). */
  private noteNegotiated(rpc: RequestBody['rpc'], raw: unknown): void {
    const version = rpc === 'initialize' ? (raw as { result?: { protocolVersion?: unknown } } | null)?.result?.protocolVersion : undefined;
    if (typeof version === 'string') this.negotiated = version;
  }

  /** Told of every JSON message received, as parsed, with the method it answers and the HTTP status
   *  (the audit checks each against its revision's schema: audit/server/received-schema.ts). */
  onReceived: ((answers: string, status: number, message: unknown) => void) | null = null;

  /** A real response as the model's HttpResponse: the whole body, read to its end. */
  private async read(res: Response, rpc: RequestBody['rpc']): Promise<HttpResponse> {
    const headers: Record<string, string> = Object.fromEntries(res.headers);
    const type = essence(res.headers.get('content-type'));
    // A resumed stream carries the answer of the tools/call it resumes.
    const answers = rpc === 'resume' ? 'tools/call' : rpc;
    if (type === 'application/json') {
      let raw: unknown;
      try {
        raw = JSON.parse(await res.text());
      } catch {
        return { status: res.status, headers, body: { kind: 'empty' } };
      }
      this.onReceived?.(answers, res.status, raw);
      this.noteNegotiated(rpc, raw);
      const message = messageFromJson(raw, answers);
      return { status: res.status, headers, body: message ? { kind: 'json', message } : { kind: 'empty' } };
    }
    if (type === 'text/event-stream') {
      // Every event is kept with its id, whatever it carries: the last id received is what a
      // resumption sends back, and a priming event (an id and empty data) may be the only one.
      const events: SseEvent[] = [];
      for (const e of await readEvents(res.body)) {
        const id = e.id ?? '';
        let raw: unknown;
        try {
          raw = JSON.parse(e.data);
        } catch {
          events.push({ id, event: 'other', data: e.data });
          continue;
        }
        // A named event other than `message` (the records' build's `progress` frames) carries no JSON-RPC message.
        if (e.event === undefined || e.event === 'message') this.onReceived?.(answers, res.status, raw);
        if (carriesResponse(e) !== undefined) {
          this.noteNegotiated(rpc, raw);
          const message = messageFromJson(raw, answers);
          events.push(message ? { id, event: 'message', data: message } : { id, event: 'other', data: e.data });
        } else if (e.event === 'progress') {
          events.push({ id, event: 'progress', data: raw as never });
        } else {
          const progress = progressFromJson(raw);
          events.push(progress ? { id, event: 'progress', data: progress } : { id, event: 'other', data: e.data });
        }
      }
      return { status: res.status, headers, body: { kind: 'sse', events, complete: true } };
    }
    // Any other body (a load balancer's HTML page) carries no JSON-RPC: drain it.
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status, headers, body: { kind: 'empty' } };
  }
}

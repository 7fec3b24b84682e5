// The load balancer and proxy of models/network.ts, on real `Request`/`Response` objects inside an
// msw handler. Request n is the n-th request the network carries; the plan's faults fire there,
// through the same rules and loop as in the model world (models/fault-rules.ts, models/network.ts),
// on a plain view of the exchange (exchange-view.ts): `before` faults reach into the client
// (config-reset) or the server (session-expire, server-restart) through hooks, request rules change
// the forwarded headers or answer without the server, response rules hold the response back in
// virtual time or end a real SSE body before its final event; a policy module's faults act the
// same way. Latency is virtual too. Everything lands in the run's history, and the network keeps
// the answer ledger (core/answer-ledger.ts): did the server finish a request (its JSON-RPC result
// passed here), and what became of that answer (delivered, lost to a cut, still held back).
// Why one file: one class, the network's single path for a request and its answer (rules, forwarding,
// the forgotten sessions, the ledger); its helpers above are the parts only that path uses.
// Cost, with no fault, in front of the in-process SDK server (tools/call over SSE): 16.6 KB allocated per
// request over the server's own 85.3 KB (20.5 KB before bodyText, the appended entries and the UNREAD
// skip; 2026-12-05). Most of what is left is the watched body (watchStream's stream: a ReadableStream
// costs ~3 KB and its makeTransferable on Node 20) and the Response around it, which a body that is
// watched as it passes needs.
import {
  answerDelivered,
  answerOf,
  answerSent,
  emptyLedger,
  finishedBy,
  serverFinished as markFinished,
} from '../../core/answer-ledger.ts';
import type { Answer, HistoryEntry } from '../../core/history.ts';
import type { FaultPlan } from '../../core/plan.ts';
import type { FaultName } from '../../../models/faults.ts';
import { applyRequestFaults, applyResponseFaults, fireBeforeFaults, isResponseFault, readsBody } from '../../../models/network.ts';
import type { PolicyAdditions } from '../../../models/additions.ts';
import type { BeforeSite, FaultEffect, RequestVerdict } from '../../../models/network.ts';
import { answerResponse, bodyAfterRules, forwardedHeaders, requestView, responseView } from './exchange-view.ts';
import { META_CALL } from '../protocol/json-rpc.ts';
import { ForgottenSessions } from './forgotten-sessions.ts';
import { Observer, type ObservedRequest } from './observer.ts';
import type { Recorder } from '../protocol/recorder.ts';
import type { ClientHooks, ServerAdapter } from './server-adapter.ts';
import { gatherStream, watchStream, type Gathered } from '../protocol/sse.ts';
import { bodyText, mislabelledBody } from '../protocol/body-content.ts';
import { realTick } from '../protocol/real-timers.ts';
import {
  bodyKind,
  CLIENT_REQ_HEADER,
  CLOSING_HEADER,
  forwardInPlace,
  REACHED_HEADER,
  REQ_HEADER,
  STRIPPED_HEADER,
  UNREACHABLE,
} from '../protocol/wire-headers.ts';

/** The longest body (in UTF-16 code units) handed over parsed: under the SDK servers' 4 MiB limit however it encodes. */
const PARSED_BODY_MAX = 1 << 20;

const NO_FAULTS: readonly FaultName[] = [];

type BodyRead = { text: string | null; gathered: Gathered | undefined; rpcError: undefined | number };
/** What readBody finds of a stream no rule reads: nothing (it is watched as it passes). */
const UNREAD: BodyRead = { text: null, gathered: undefined, rpcError: undefined };

type RequestEntry = Extract<HistoryEntry, { kind: 'request' }>;
type ResponseEntry = Extract<HistoryEntry, { kind: 'response' }>;

/** The plan's faults by the request they fire at, in plan order: looked up per request, not filtered. */
function faultsByRequest(plan: FaultPlan): Map<number, FaultName[]> {
  const at = new Map<number, FaultName[]>();
  for (const f of plan) {
    const list = at.get(f.at);
    if (list) list.push(f.fault);
    else at.set(f.at, [f.fault]);
  }
  return at;
}

/** The headers a copy of the request is forwarded with: the client's, or as the request rules left them;
 *  without the client's request number, with the network's (and the closing flag of a connection-reset).
 *  Built only for a copy: a request forwarded in place has its own set (wire-headers.ts `forwardInPlace`). */
function forwardHeaders(
  request: Request,
  headers: Record<string, string>,
  verdict: RequestVerdict | null,
  n: number,
): Headers | [string, string][] {
  if (verdict) {
    const out = forwardedHeaders(request.headers, headers, verdict.request.headers, STRIPPED_HEADER);
    out.delete(CLIENT_REQ_HEADER);
    out.set(REQ_HEADER, String(n));
    if (verdict.request.closing === true) out.set(CLOSING_HEADER, '1');
    return out;
  }
  const out: [string, string][] = [];
  request.headers.forEach((v, k) => {
    if (k !== CLIENT_REQ_HEADER && k !== REQ_HEADER) out.push([k, v]);
  });
  out.push([REQ_HEADER, String(n)]);
  return out;
}

/** The adapter's note of what reached a real server, taken off the response (null: an in-process server). */
function takeReached(response: Response): string | null {
  const reached = response.headers.get(REACHED_HEADER);
  if (reached !== null) response.headers.delete(REACHED_HEADER);
  return reached;
}

/** The forwarded headers with the session id replaced by a forgotten session's stand-in (if any). */
function withSessionId(h: Headers | [string, string][], standIn: string | null): Headers | [string, string][] {
  if (standIn === null) return h;
  if (h instanceof Headers) {
    if (h.has('mcp-session-id')) h.set('mcp-session-id', standIn);
    return h;
  }
  return h.map(([k, v]) => [k, k === 'mcp-session-id' ? standIn : v]);
}

export class FaultNetwork {
  carried = 0;
  private readonly ledger = emptyLedger();
  private readonly byCall = new Map<number, number>();
  private readonly byClientReq = new Map<number, number>();
  private readonly observer: Observer;
  private readonly faultsAt: Map<number, FaultName[]>;
  /** Sessions forgotten at the proxy for a server that cannot forget them itself (forgotten-sessions.ts). */
  private readonly forgotten = new ForgottenSessions();

  /** Record each request's JSON-RPC id (the client audit asks whether a re-issue used a new one). */
  recordRpcIds = false;

  constructor(
    plan: FaultPlan,
    private readonly recorder: Recorder,
    private readonly server: ServerAdapter,
    private readonly client: ClientHooks,
    private readonly latencyMs: number,
    /** The run's registered faults: passed to every rule lookup, as the network's steps are asynchronous. */
    private readonly additions: PolicyAdditions,
  ) {
    this.observer = new Observer(recorder, !server.notesItself);
    this.faultsAt = faultsByRequest(plan);
  }

  private get time() {
    return this.recorder.time;
  }

  /** The network's index of a client's own request number (the model client numbers its requests). */
  requestOfClientReq(clientReq: number): number {
    return this.byClientReq.get(clientReq) ?? -1;
  }

  /** The last request that carried workload call `callId`. */
  requestOfCall(callId: number): number {
    return this.byCall.get(callId) ?? -1;
  }

  answer(n: number): Answer {
    return answerOf(this.ledger, n);
  }

  serverFinished(n: number): boolean {
    return finishedBy(this.ledger, n);
  }

  /** How `before` faults at request n reach into the client and the server. */
  private site(n: number): BeforeSite {
    return {
      resetClientConfig: () => (this.client.configReset() ? null : 'this client has no mutable config'),
      forgetSessions: async (which, sessionId) => {
        const cannot = this.server.cannot(which === 'all' ? 'server-restart' : 'session-expire', sessionId);
        // One session the server cannot be made to forget: the proxy forgets it on the server's behalf.
        if (cannot && which === 'one' && sessionId !== null) {
          this.forgotten.forget(sessionId);
          this.observer.forgotten([sessionId], 'expired');
          return 1;
        }
        if (cannot) return cannot;
        const forgot = which === 'all' ? await this.server.restart() : await this.server.expire(sessionId);
        this.observer.forgotten(forgot, which === 'all' ? 'restart' : 'expired');
        return forgot.length;
      },
      hold: () => {
        // The fault's entry precedes what it caused, as in the model tier's history.
        const at = this.recorder.entries.length;
        return (e) => {
          const entry = { t: this.time.now, kind: 'fault' as const, fault: e.fault, at: n, applied: e.applied, detail: e.detail };
          this.recorder.entries.splice(at, 0, entry);
        };
      },
    };
  }

  /** The msw resolver: carry one request through the faults to the server and back. Over 80 lines on
   *  purpose: one request's single pass, each step reading what the one before decided (the hot path). */
  async carry(request: Request): Promise<Response> {
    const n = this.carried++;
    // msw keeps every request of a loop that never yields: yield now and then.
    if (n % 200 === 199) await realTick();
    const faults = this.faultsAt.get(n) ?? NO_FAULTS;
    const method = request.method;
    // The body is read once, here, and forwarded as text (no clone: a clone tees the stream).
    const text = method === 'GET' || method === 'HEAD' ? '' : await bodyText(request.body);
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    // The history's headers (without the network's own), and the client's request number.
    const headers: Record<string, string> = {};
    let clientReq: string | null = null;
    request.headers.forEach((v, k) => {
      if (!k.startsWith('x-faultsim-')) headers[k] = v;
      else if (k === CLIENT_REQ_HEADER) clientReq = v;
    });
    const rpc = method === 'GET' ? (headers['last-event-id'] !== undefined ? 'resume' : 'GET') : (json?.method ?? method);
    // The rules' view of the request is built only where a fault fires (it parses the body against the SDK's schema).
    const view = faults.length > 0 ? requestView(method, headers, rpc, text) : null;
    if (view) await fireBeforeFaults(faults, view, this.site(n), this.additions);

    const metaCall = typeof json?.params?._meta?.[META_CALL] === 'number' ? (json.params._meta[META_CALL] as number) : undefined;
    // The history names the call of a tools/call (as the model tier does); any request may carry one.
    const callId = rpc === 'tools/call' ? metaCall : undefined;
    // The entry is made here in its final key order (t first, then as `record` would spread it): no copy.
    const entry: RequestEntry = { t: this.recorder.now, kind: 'request', req: n, method, rpc, headers };
    if (callId !== undefined) entry.callId = callId;
    if (this.recordRpcIds && (typeof json?.id === 'number' || typeof json?.id === 'string')) entry.id = json.id as number | string;
    this.recorder.append(entry);
    if (clientReq !== null) this.byClientReq.set(Number(clientReq), n);
    if (metaCall !== undefined) this.byCall.set(metaCall, n);
    const sessionId = headers['mcp-session-id'] ?? null;
    const observed: ObservedRequest = callId !== undefined ? { n, rpc, sessionId, callId } : { n, rpc, sessionId };

    const verdict = view && applyRequestFaults(view, faults, this.additions);
    if (verdict) this.faults(n, verdict.effects);
    const responseFaults = faults.length > 0 ? faults.filter((f) => isResponseFault(f, this.additions)) : NO_FAULTS;
    if (verdict?.answer) return this.respond(n, observed, answerResponse(verdict.answer), 'load-balancer', responseFaults);

    await this.time.sleep(this.latencyMs);
    // connection-reset: the server sees the connection close before it answers (its request is aborted;
    // the model server is told in a bookkeeping header, a real one sees the signal).
    const closing = verdict?.request.closing === true;
    // Only a closing connection needs a signal of ours: any other forwarded request is never aborted.
    const abort = closing ? new AbortController() : null;
    // A server that takes the parsed body gets it in place of the text it would parse again, where no rule
    // touched the request; a body it would refuse as too large (its 4 MiB: > 1 Mi UTF-16 units) still goes as text.
    const standIn = this.forgotten.standIn(headers['mcp-session-id']);
    const parsed =
      !verdict && standIn === null && this.server.takesParsedBody && json !== null && text.length <= PARSED_BODY_MAX ? json : undefined;
    // Such a server reads nothing of the request but its line and headers (and no signal): it is handed the
    // client's own request, its headers set as they would be forwarded, rather than a copy (a Request costs).
    const forwarded =
      parsed !== undefined && forwardInPlace(request, n, clientReq !== null)
        ? request
        : new Request(request.url, {
            method,
            headers: withSessionId(forwardHeaders(request, headers, verdict, n), standIn),
            body: parsed !== undefined ? undefined : text || undefined,
            ...(abort ? { signal: abort.signal } : {}),
          });
    let response: Response;
    try {
      const handled = this.server.handle(forwarded, n, parsed);
      abort?.abort();
      response = await handled;
    } catch (e) {
      // A server adapter that throws is a 500, as an HTTP server would answer.
      response = Response.json(
        { jsonrpc: '2.0', id: null, error: { code: -32603, message: `Internal error: ${e instanceof Error ? e.message : String(e)}` } },
        { status: 500 },
      );
    }
    return this.respond(n, observed, response, 'server', responseFaults);
  }

  private faults(at: number, effects: readonly FaultEffect[]): void {
    for (const e of effects) this.recorder.record({ kind: 'fault', fault: e.fault, at, applied: e.applied, detail: e.detail });
  }

  /** A body that is not a stream is one piece: read it here (the network sees what passes). msw's
   *  bodies cannot be cancelled (mswjs/interceptors#799), and the SDK cancels the empty body of a
   *  202: left as a stream, its connect() would hang forever on a server that sends one
   *  (server-everything does). A stream is gathered up to its final event only for a rule that reads it. */
  private async readBody(
    response: Response,
    kind: ReturnType<typeof bodyKind>,
    faults: readonly FaultName[],
    seen: (m: any) => void,
  ): Promise<BodyRead> {
    let text: string | null = null;
    let gathered: Gathered | undefined;
    let rpcError: number | undefined;
    if (kind !== 'sse' && response.body) {
      text = await response.text();
      if (kind === 'json') {
        try {
          const m = JSON.parse(text);
          if (typeof m?.error?.code === 'number') rpcError = m.error.code;
          seen(m);
        } catch {
          /* not JSON after all: the client will find out */
        }
      }
    } else if (kind === 'sse' && response.body && readsBody(faults, this.additions)) {
      gathered = await gatherStream(
        response.body,
        (m) => (seen(m), this.time.activity++),
        () => this.time.idle(),
      );
    }
    return { text, gathered, rpcError };
  }

  /** A response leaves the server (or the load balancer) toward the client, through the response faults. */
  private async respond(
    n: number,
    req: ObservedRequest,
    response: Response,
    from: 'server' | 'load-balancer',
    faults: readonly FaultName[],
  ): Promise<Response> {
    // Each header is read once (a Headers lookup validates and lower-cases its name every time).
    const contentType = response.headers.get('content-type');
    const sessionId = response.headers.get('mcp-session-id');
    // A real server's adapter says what reached the server (the header never goes on to the client).
    const reached = from === 'server' ? takeReached(response) : null;
    // The adapter's own answer when the server was unreachable is the proxy's, not the server's.
    if (reached === UNREACHABLE) from = 'load-balancer';
    const kind = bodyKind(response, contentType);
    const seen = (m: any) => {
      if (m && typeof m === 'object' && 'result' in m && req.rpc === 'tools/call') markFinished(this.ledger, n);
      this.observer.onMessage(req, response.status, sessionId, m);
    };
    // A stream no rule reads is not read here: awaited as a value, it takes the one turn readBody's promise took.
    const unread = kind === 'sse' && (response.body === null || faults.length === 0);
    const { text, gathered, rpcError } = await (unread ? UNREAD : this.readBody(response, kind, faults, seen));
    // Without a response fault here no rule looks: the response passes as it is, and its view is never built.
    const v = faults.length > 0 ? responseView(response, kind, text, gathered) : null;
    const verdict = v && applyResponseFaults(v.view, faults, from, this.additions);
    if (verdict) this.faults(n, verdict.effects);
    const out = verdict?.response;
    const unchanged = !v || out === v.view;
    let body: ReadableStream<Uint8Array> | string | null;
    if (kind === 'sse' && !gathered && unchanged) {
      body = response.body && watchStream(response.body, seen, () => (this.time.activity++, undefined));
    } else if (!out) {
      body = text === '' ? null : text;
    } else {
      body = bodyAfterRules(out, v!, gathered, text);
      // A rule replaced a stream it did not read (an answer lost at the load balancer): nobody will read it.
      if (kind === 'sse' && !gathered) response.body?.cancel().catch(() => {});
    }
    const status = out ? out.status : response.status;
    // A real server's whole body its Content-Type misnames (a JSON error sent without one) is recorded as what it is.
    const content = from === 'server' && unchanged && text !== null ? mislabelledBody(contentType, text) : undefined;
    const delay = this.latencyMs * (from === 'server' ? 1 : 2) + (verdict?.delayMs ?? 0);
    const entry: ResponseEntry = {
      t: this.recorder.now,
      kind: 'response',
      req: n,
      status,
      contentType: (out ? out.headers['content-type'] : contentType) ?? null,
      sessionId: (out ? out.headers['mcp-session-id'] : sessionId) ?? null,
      body: out ? out.body.kind : kind,
      deliverAt: this.time.now + delay,
      from,
    };
    if (unchanged && rpcError !== undefined) entry.rpcError = rpcError;
    if (reached !== null) entry.reached = reached;
    if (content !== undefined) entry.content = content;
    this.recorder.append(entry);
    answerSent(this.ledger, n, verdict?.lostAnswer ?? false);
    await this.time.sleep(delay);
    answerDelivered(this.ledger, n);
    this.recorder.append({ t: this.recorder.now, kind: 'deliver', req: n });
    // A reset connection has no response at all: the client's fetch fails.
    if (status === 0) return Response.error();
    const headers = unchanged ? response.headers : new Headers(out!.headers);
    return new Response(body, { status, statusText: unchanged ? response.statusText : '', headers });
  }
}

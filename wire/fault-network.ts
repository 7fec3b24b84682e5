// The load balancer and proxy of models/network.ts, on real `Request`/`Response` objects inside an
// msw handler. Request n is the n-th request the network carries; the plan's faults fire there:
// `before` faults reach into the client (config-reset) or the server (session-expire,
// server-restart), `http-502` answers without the server, `strip-header:<name>` removes a real
// header, `stream-cut` ends a real SSE body before its final event, `delay:<ms>` holds the response
// back in virtual time. Latency is virtual too. Everything lands in the run's history, and the
// network keeps what the oracles need about each request: did the server finish it (its JSON-RPC
// result passed here), and what became of that answer (delivered, lost to a cut, still held back).
import { delayMs, faultKind, strippedHeader, type FaultName } from '../models/faults.ts';
import { isResponseFault } from '../models/network.ts';
import type { Answer } from '../core/history.ts';
import type { FaultPlan } from '../core/plan.ts';
import { META_CALL } from './json-rpc.ts';
import { Observer, type ObservedRequest } from './observer.ts';
import type { Recorder } from './recorder.ts';
import type { ClientHooks, ServerAdapter } from './server-adapter.ts';
import { cutStream, watchStream } from './sse.ts';
import { realTick } from './virtual-time.ts';

/** Headers the wire tier adds for its own bookkeeping; never recorded, never a fault's target. */
export const REQ_HEADER = 'x-faultsim-req';
export const CLIENT_REQ_HEADER = 'x-faultsim-client-req';
/** Names the headers the proxy stripped from a forwarded request: msw hands the server a parsed
 *  Request, so a body whose chunked framing was stripped still arrives whole; a server that selects
 *  its transport by that framing (the records' server build) reads this instead. */
export const STRIPPED_HEADER = 'x-faultsim-stripped';

function essence(type: string | null): string {
  return (type ?? '').split(';')[0]!.trim().toLowerCase();
}

function bodyKind(res: Response): 'json' | 'sse' | 'empty' {
  const t = essence(res.headers.get('content-type'));
  if (res.body === null) return 'empty';
  return t === 'text/event-stream' ? 'sse' : t === 'application/json' ? 'json' : 'empty';
}

export class FaultNetwork {
  carried = 0;
  private readonly lost = new Set<number>();
  private readonly inTransit = new Set<number>();
  private readonly delivered = new Set<number>();
  private readonly finished = new Set<number>();
  private readonly byCall = new Map<number, number>();
  private readonly byClientReq = new Map<number, number>();
  private readonly observer: Observer;

  constructor(
    private readonly plan: FaultPlan,
    private readonly recorder: Recorder,
    private readonly server: ServerAdapter,
    private readonly client: ClientHooks,
    private readonly latencyMs: number,
  ) {
    this.observer = new Observer(recorder, !server.notesItself);
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
    if (this.lost.has(n)) return 'lost';
    if (this.inTransit.has(n)) return 'in-transit';
    if (this.delivered.has(n)) return 'delivered';
    return 'none';
  }

  serverFinished(n: number): boolean {
    return this.finished.has(n);
  }

  /** The msw resolver: carry one request through the faults to the server and back. */
  async carry(request: Request): Promise<Response> {
    const n = this.carried++;
    // msw keeps every request of a loop that never yields: yield now and then.
    if (n % 200 === 199) await realTick();
    const faults = this.plan.filter((f) => f.at === n).map((f) => f.fault);
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    for (const fault of faults) await this.fireBefore(fault, n, request);

    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => {
      if (!k.startsWith('x-faultsim-')) headers[k] = v;
    });
    const rpc = request.method === 'GET' ? (headers['last-event-id'] !== undefined ? 'resume' : 'GET') : json?.method ?? request.method;
    const metaCall = typeof json?.params?._meta?.[META_CALL] === 'number' ? (json.params._meta[META_CALL] as number) : undefined;
    // The history names the call of a tools/call (as the model tier does); any request may carry one.
    const callId = rpc === 'tools/call' ? metaCall : undefined;
    this.recorder.record({ kind: 'request', req: n, method: request.method, rpc, headers, ...(callId !== undefined ? { callId } : {}) });
    const clientReq = request.headers.get(CLIENT_REQ_HEADER);
    if (clientReq !== null) this.byClientReq.set(Number(clientReq), n);
    if (metaCall !== undefined) this.byCall.set(metaCall, n);
    const observed: ObservedRequest = { n, rpc, sessionId: headers['mcp-session-id'] ?? null, ...(callId !== undefined ? { callId } : {}) };

    let answer: Response | undefined;
    const forwardHeaders = new Headers(request.headers);
    forwardHeaders.delete(CLIENT_REQ_HEADER);
    for (const fault of faults) {
      const kind = faultKind(fault);
      if (kind === 'http-502') {
        const applied = answer === undefined;
        answer ??= new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } });
        this.fault(fault, n, applied, applied ? 'load balancer answered 502 Bad Gateway' : 'already answered by the load balancer');
      } else if (kind === 'strip-header') {
        const name = strippedHeader(fault)!;
        const had = forwardHeaders.has(name);
        forwardHeaders.delete(name);
        if (had) forwardHeaders.append(STRIPPED_HEADER, name);
        this.fault(fault, n, had, had ? `proxy stripped ${name}` : `no ${name} header to strip`);
      }
    }
    const responseFaults = faults.filter(isResponseFault);
    if (answer) return this.respond(n, observed, answer, 'load-balancer', responseFaults);

    await this.time.sleep(this.latencyMs);
    forwardHeaders.set(REQ_HEADER, String(n));
    const forwarded = new Request(request.url, { method: request.method, headers: forwardHeaders, body: text || undefined });
    let response: Response;
    try {
      response = await this.server.handle(forwarded, n);
    } catch (e) {
      // A server adapter that throws is a 500, as an HTTP server would answer.
      response = Response.json({ jsonrpc: '2.0', id: null, error: { code: -32603, message: `Internal error: ${e instanceof Error ? e.message : String(e)}` } }, { status: 500 });
    }
    return this.respond(n, observed, response, 'server', responseFaults);
  }

  private fault(fault: string, at: number, applied: boolean, detail: string): void {
    this.recorder.record({ kind: 'fault', fault, at, applied, detail });
  }

  private async fireBefore(fault: FaultName, n: number, request: Request): Promise<void> {
    const kind = faultKind(fault);
    if (kind === 'config-reset') {
      const reset = this.client.configReset();
      this.fault(fault, n, reset, reset ? 'client config reset to defaults' : 'skipped: this client has no mutable config');
    } else if (kind === 'session-expire' || kind === 'server-restart') {
      // (FaultKind admits registered kinds, so the comparison above does not narrow it by itself.)
      const cannot = this.server.cannot(kind as 'session-expire' | 'server-restart');
      if (cannot) return this.fault(fault, n, false, `skipped: ${cannot}`);
      const at = this.recorder.entries.length;
      const forgot = kind === 'server-restart' ? await this.server.restart() : await this.server.expire(request.headers.get('mcp-session-id'));
      this.observer.forgotten(forgot, kind === 'server-restart' ? 'restart' : 'expired');
      // The fault precedes what it caused, as in the model tier's history.
      const entry = { t: this.time.now, kind: 'fault' as const, fault, at: n, applied: forgot.length > 0, detail: forgot.length > 0 ? `server forgot ${forgot.length} session(s)` : 'no live session to forget' };
      this.recorder.entries.splice(at, 0, entry);
    }
  }

  /** A response leaves the server (or the load balancer) toward the client, through the response faults. */
  private async respond(n: number, req: ObservedRequest, response: Response, from: 'server' | 'load-balancer', faults: FaultName[]): Promise<Response> {
    const kind = bodyKind(response);
    const sessionId = response.headers.get('mcp-session-id');
    let body: ReadableStream<Uint8Array> | string | null = response.body;
    let extraMs = 0;
    const seen = (m: any) => {
      if (m && typeof m === 'object' && 'result' in m && req.rpc === 'tools/call') this.finished.add(n);
      this.observer.onMessage(req, response.status, sessionId, m);
    };
    let cut = false;
    for (const fault of faults) {
      if (faultKind(fault) === 'stream-cut') {
        if (kind !== 'sse' || !body || typeof body === 'string' || cut) {
          this.fault(fault, n, false, 'no SSE stream to cut');
          continue;
        }
        cut = true;
        body = cutStream(body, ({ passed, dropped }) => {
          if (dropped !== undefined) {
            seen(dropped);
            this.lost.add(n);
          }
          this.time.activity++;
          void passed;
        });
        this.fault(fault, n, true, 'SSE stream ends before its final event');
      } else if (faultKind(fault) === 'delay') {
        const ms = delayMs(fault)!;
        extraMs += ms;
        this.fault(fault, n, true, `response held back ${ms} ms`);
      }
    }
    if (kind !== 'sse' && typeof body !== 'string' && body) {
      // A body that is not a stream is one piece: read it here (the network sees what passes) and
      // pass it on; an empty one passes as no body at all. msw's bodies cannot be cancelled
      // (mswjs/interceptors#799), and the SDK cancels the empty body of a 202: left as a stream,
      // its connect() would hang forever on a server that sends one (server-everything does).
      const text = await response.text();
      body = text === '' ? null : text;
      if (kind === 'json') {
        try {
          seen(JSON.parse(text));
        } catch {
          /* not JSON after all: the client will find out */
        }
      }
    } else if (kind === 'sse' && typeof body !== 'string' && body && !cut) {
      body = watchStream(body, seen, () => (this.time.activity++, undefined));
    }
    const delay = this.latencyMs * (from === 'server' ? 1 : 2) + extraMs;
    this.recorder.record({
      kind: 'response',
      req: n,
      status: response.status,
      contentType: response.headers.get('content-type'),
      sessionId,
      body: kind,
      deliverAt: this.time.now + delay,
      from,
    });
    this.inTransit.add(n);
    await this.time.sleep(delay);
    this.inTransit.delete(n);
    this.delivered.add(n);
    this.recorder.record({ kind: 'deliver', req: n });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
}

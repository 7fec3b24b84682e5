// The fault rules (models/fault-rules.ts) read and change a plain HTTP exchange, the model's
// (models/messages.ts). This is that view of real Request/Response objects, and the way back:
// the request's method, headers and JSON-RPC body; the response's status, headers and body, with
// an SSE stream's events gathered up to its final one (sse.ts) when a rule reads them. What a rule
// changes is carried back onto the real objects: header edits, an answer of the network's own, a
// response's status, headers and body. A change to a request's body has no wire meaning here and
// is not carried (registered faults, docs/library.md, change headers or answer).
import type { EventSourceMessage } from 'eventsource-parser';
import type { HttpRequest, HttpResponse, JsonRpcMessage, RequestBody, SseEvent } from '../../../models/messages.ts';
import { requestFromJson } from '../protocol/json-rpc.ts';
import { encodeEvent, type Gathered } from '../protocol/sse.ts';

export function requestView(method: string, headers: Record<string, string>, rpc: string, text: string): HttpRequest {
  const parsed = method === 'GET' ? null : requestFromJson(method, text);
  const body = parsed && 'body' in parsed && parsed.body ? parsed.body : ({ rpc } as unknown as RequestBody);
  return { method: method as HttpRequest['method'], headers, body: method === 'GET' ? ({ rpc } as RequestBody) : body };
}

/** The headers to forward after the rules changed the view's: removed ones are named in `stripped`. */
export function forwardedHeaders(real: Headers, before: Record<string, string>, after: Record<string, string>, stripped: string): Headers {
  const out = new Headers(real);
  for (const name of Object.keys(before)) {
    if (name in after) continue;
    out.delete(name);
    out.append(stripped, name);
  }
  for (const [name, value] of Object.entries(after)) if (before[name] !== value) out.set(name, value);
  return out;
}

function headerRecord(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

function parsed(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/** The response as the rules see it; `raw` maps each gathered event of the view back to its bytes. */
export interface ResponseView {
  view: HttpResponse;
  raw: Map<SseEvent, EventSourceMessage>;
}

export function responseView(
  res: Response,
  kind: HttpResponse['body']['kind'],
  text: string | null,
  gathered: Gathered | undefined,
): ResponseView {
  const raw = new Map<SseEvent, EventSourceMessage>();
  let body: HttpResponse['body'];
  if (kind === 'json') body = { kind: 'json', message: parsed(text ?? '') as JsonRpcMessage };
  else if (kind === 'sse') {
    // Not gathered: no rule here reads the events, so the view leaves them out.
    const events = (gathered?.events ?? []).map((m): SseEvent => {
      const e = { id: m.id ?? '', event: (m.event ?? 'message') as SseEvent['event'], data: parsed(m.data) as SseEvent['data'] };
      raw.set(e, m);
      return e;
    });
    body = { kind: 'sse', events, complete: true };
  } else body = { kind: 'empty' };
  return { view: { status: res.status, headers: headerRecord(res.headers), body }, raw };
}

const STATUS_TEXT: Record<number, string> = {
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** A response the network makes up (the load balancer's 502): an HTML error page when it says text/html. */
export function answerResponse(answer: HttpResponse): Response {
  const statusText = STATUS_TEXT[answer.status] ?? '';
  return new Response(bodyText(answer) ?? null, { status: answer.status, statusText, headers: answer.headers });
}

function bodyText(r: HttpResponse): string | undefined {
  if (r.body.kind === 'json') return JSON.stringify(r.body.message);
  if (r.body.kind === 'sse') return r.body.events.map((e) => encodeEvent({ ...e, data: JSON.stringify(e.data) })).join('');
  const page = `<html><body><h1>${r.status} ${STATUS_TEXT[r.status] ?? ''}</h1></body></html>`;
  if (r.headers['content-type']?.startsWith('text/html')) return page;
  return undefined;
}

/**
 * The body to pass on for a response the rules saw as `out`. An SSE stream passes the view's
 * events (their own bytes where they were gathered), then, if the view is still complete, the rest
 * of the real stream; a cut one ends there and the real stream is cancelled.
 */
export function bodyAfterRules(
  out: HttpResponse,
  v: ResponseView,
  gathered: Gathered | undefined,
  original: string | null,
): ReadableStream<Uint8Array> | string | null {
  if (out.body.kind === 'sse' && gathered) {
    const events = out.body.events.map((e) => v.raw.get(e) ?? { id: e.id, event: e.event, data: JSON.stringify(e.data) });
    return gathered.replay(events, out.body.complete);
  }
  gathered?.cancel();
  if (out.body === v.view.body) return original === '' ? null : original;
  return bodyText(out) ?? null;
}

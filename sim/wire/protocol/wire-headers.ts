// The headers the wire tier adds to an exchange for its own bookkeeping (wire/net/fault-network.ts
// numbers each request it carries; the model servers read the others), and what the network reads
// of an exchange's headers on its plain path: set without copying the request, a body's kind.
/** Headers the wire tier adds for its own bookkeeping; never recorded, never a fault's target. */
export const REQ_HEADER = 'x-faultsim-req';
export const CLIENT_REQ_HEADER = 'x-faultsim-client-req';
/** Names the headers the proxy stripped from a forwarded request: msw hands the server a parsed
 *  Request, so a body whose chunked framing was stripped still arrives whole; a server that selects
 *  its transport by that framing (the records' server build) reads this instead. */
export const STRIPPED_HEADER = 'x-faultsim-stripped';
/** Set by a loopback server's adapter on its answer: what reached the real server (the body's framing and
 *  the header names forwarded), recorded on the response entry and removed before the client sees it. */
export const REACHED_HEADER = 'x-faultsim-reached';
/** REACHED_HEADER's value on the audit's own 502 when the server could not be reached: nothing reached it. */
export const UNREACHABLE = 'nothing: the audit could not reach the server';
/** Marks a request whose connection closes before the answer (connection-reset), for the model server. */
export const CLOSING_HEADER = 'x-faultsim-closing';

/** Set a request's own headers as a forwarded copy's would be; false when they cannot change (then copy it).
 *  `hasClientReq`: the request carries the client's request number (removed; a delete that finds nothing costs). */
export function forwardInPlace(request: Request, n: number, hasClientReq: boolean): boolean {
  try {
    if (hasClientReq) request.headers.delete(CLIENT_REQ_HEADER);
    request.headers.set(REQ_HEADER, String(n));
    return true;
  } catch {
    return false;
  }
}

/** A content type without its parameters, lower-cased ('' for none). */
function essence(type: string | null): string {
  if (type === null) return '';
  const semi = type.indexOf(';');
  return (semi < 0 ? type : type.slice(0, semi)).trim().toLowerCase();
}

/** What a response's body is to the network: JSON to parse, an SSE stream to watch, or nothing to read. */
export function bodyKind(res: Response, contentType: string | null): 'json' | 'sse' | 'empty' {
  if (res.body === null) return 'empty';
  const t = essence(contentType);
  return t === 'text/event-stream' ? 'sse' : t === 'application/json' ? 'json' : 'empty';
}

// Transport selection for a session. Seed 003: a proxy that strips `Transfer-Encoding: chunked` on
// the POST path refuses chunked bodies, and the session falls back to HTTP+SSE. docs/design.md decides
// that this holds on any `initialize` POST, a re-initialize of a live session included, and the
// records say nothing of a way back: once a session runs on SSE it stays there.
import type { Transport } from './capabilities.ts';
import type { HttpRequest } from './messages.ts';

export function chunkedRefused(request: HttpRequest): boolean {
  return request.method === 'POST' && request.headers['transfer-encoding'] !== 'chunked';
}

/**
 * The transport a session runs on after an `initialize` request: the client's proposal unless the
 * proxy forced the fallback, and never back up from a fallback already taken.
 */
export function selectTransport(request: HttpRequest, proposed: Transport, current: Transport | null): Transport {
  if (current === 'sse') return 'sse';
  if (chunkedRefused(request)) return 'sse';
  return proposed;
}

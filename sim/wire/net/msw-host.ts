// msw wiring, in one place: one `setupServer` per process, listening while any wire run needs it,
// with unhandled requests as errors, so nothing reaches a real network unless a run names a
// loopback target. Each run installs one handler for exactly its own URL and removes it after.
import { http, type HttpHandler } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';

let server: SetupServer | null = null;
let users = 0;

export function acquireMsw(): SetupServer {
  const s = (server ??= setupServer());
  if (users++ === 0) s.listen({ onUnhandledRequest: 'error' });
  return s;
}

export function releaseMsw(): void {
  if (!server || users === 0) return;
  if (--users === 0) server.close();
}

/** Route every request to `url` (any method) through `carry`; returns the handler to remove. */
export function route(url: string, carry: (request: Request) => Promise<Response>): HttpHandler {
  return http.all(url, ({ request }) => carry(request));
}

/** Install `handler` for the duration of a run (runs are sequential: see VirtualTime). */
export function install(msw: SetupServer, handler: HttpHandler): () => void {
  msw.use(handler);
  return () => msw.resetHandlers();
}

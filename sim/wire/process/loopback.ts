// A real MCP server on loopback behind the fault network: `--target http://127.0.0.1:PORT/mcp` (a
// server the user runs) or `--serve "<command with {port}>"` (served-process.ts starts it). The client
// fetches the endpoint's URL; msw intercepts it, the network applies the plan, and the adapter
// forwards the request to the real server (loopback-fetch.ts; never anywhere but loopback, never
// following a redirect). `session-expire` needs the server's cooperation and is skipped (and
// reported) against both; `server-restart` is skipped against `--target`, which the tool did not start.
// Each run against the server is armed on the endpoint's watchdog (watchdog.ts) from its adapter's
// creation to its close, and a served server that fails ends the command through the same watchdog.
import { EVERYTHING_TOOLS, type ToolMap } from '../protocol/tool-maps.ts';
import { loopbackFetch } from './loopback-fetch.ts';
import type { ServerAdapter } from '../net/server-adapter.ts';
import { LoopbackError, ServedProcess } from './served-process.ts';
import { checkTargetUrl, LOCAL_UPSTREAM, redirectError, type Upstream } from './upstream.ts';
import type { VirtualTime } from '../protocol/virtual-time.ts';
import type { Watchdog } from './watchdog.ts';
import { CLOSING_HEADER, REACHED_HEADER, UNREACHABLE } from '../protocol/wire-headers.ts';

export { LoopbackError, ServedProcess };

export interface LoopbackEndpoint {
  name: string;
  url: string;
  tools: ToolMap;
  /** How requests reach the server: its headers, CA, whether it may be off loopback. */
  upstream: Upstream;
  adapter(time: VirtualTime): ServerAdapter;
  stop(): Promise<void>;
  /** Where the server answers now (a served one moves at a restart); absent: at `url`. */
  liveUrl?: () => string;
}

class LoopbackAdapter implements ServerAdapter {
  readonly notesItself = false;
  /** Ends what the run left open at its close: msw never passes a client's cancel on to a body
   *  (mswjs/interceptors#799), so the SDK's standalone GET stream outlived every run. */
  private readonly open = new AbortController();
  /** A restart under way: requests wait for it rather than reach the process being replaced. */
  private restarting: Promise<void> | null = null;

  constructor(
    readonly name: string,
    private readonly url: () => string,
    private readonly time: VirtualTime,
    private readonly restartable: (() => Promise<void>) | null,
    private readonly watchdog: Watchdog | null,
    private readonly upstream: Upstream,
  ) {
    watchdog?.runStarted();
  }

  cannot(fault: 'session-expire' | 'server-restart', sessionId: string | null = null): string | null {
    // A server that issued no session id (stateless) has none to forget: that, not the process, is why.
    if (fault === 'session-expire' && sessionId === null)
      return 'the server issued no session id (Mcp-Session-Id): there is no session to forget';
    if (fault === 'session-expire') return 'the server runs in another process: its sessions cannot be reached into';
    return this.restartable ? null : 'the audit did not start this server (--target), so it cannot restart it: give --serve CMD to let it';
  }

  async handle(request: Request): Promise<Response> {
    const headers: Record<string, string> = {};
    // The body goes framed as the client framed it (chunked stays chunked: the worker frames it, so the
    // header itself is not copied); bookkeeping stays here.
    request.headers.forEach((v, k) => {
      if (!k.startsWith('x-faultsim-') && k !== 'transfer-encoding' && k !== 'content-length') headers[k] = v;
    });
    const chunked = /chunked/i.test(request.headers.get('transfer-encoding') ?? '');
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
    // What reaches the server, for the audit to tell whether a fault changed it: framing and header names
    // (never the user's headers, which join below).
    const reached = `${body === undefined || body === '' ? 'no body' : chunked ? 'chunked' : 'content-length'}: ${Object.keys(headers).sort().join(', ')}`;
    // The user's headers (credentials) join here, after the network recorded the request: never in a history.
    Object.assign(headers, this.upstream.headers);
    let res: Response;
    await this.restarting;
    const url = this.url();
    try {
      // GET streams stay open by design; a POST's body is part of the exchange until it ends.
      const { ca, remote } = this.upstream;
      // The run's end aborts what it left open; a client that abandons its request (a probe's close
      // before the head) aborts it too. A connection-reset's signal is the network's own note: its
      // request still goes to the server, as before.
      const signal = request.headers.has(CLOSING_HEADER) ? this.open.signal : AbortSignal.any([this.open.signal, request.signal]);
      const init = { method: request.method, headers, body, signal, ca, remote, chunked };
      res = await loopbackFetch(this.time, url, init, request.method !== 'GET');
    } catch (e) {
      // The audit's own answer, not the server's: marked so, and recorded as the proxy's (not the server's).
      return new Response(`upstream ${url} unreachable: ${e instanceof Error ? e.message : String(e)}`, {
        status: 502,
        headers: { 'content-type': 'text/plain', [REACHED_HEADER]: UNREACHABLE },
      });
    }
    // A body that is not a stream is read here, whole: msw's bodies cannot be cancelled
    // (mswjs/interceptors#799), so none is left for a client to cancel.
    const sse = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
    const out = res.body && !sse ? await res.arrayBuffer() : res.body;
    const answered = new Headers(res.headers);
    answered.set(REACHED_HEADER, reached);
    return new Response(out, { status: res.status, statusText: res.statusText, headers: answered });
  }

  async expire(): Promise<string[]> {
    return [];
  }

  async restart(): Promise<string[]> {
    if (!this.restartable) return [];
    // Requests that arrive while the process boots wait for it, as they would for a server behind a
    // load balancer that holds connections; virtual time stands still meanwhile (VirtualTime.hold).
    const restarting = this.time.hold(this.restartable());
    this.restarting = restarting.catch(() => {});
    try {
      await restarting;
    } catch {
      // The served process's own failure (whenFailed) ends the command with its reason; the run
      // goes on against nothing, not with a stack trace out of msw's handler.
      return [];
    }
    return ['(every session of the restarted process)'];
  }

  async close(): Promise<void> {
    this.open.abort();
    this.watchdog?.runEnded();
  }
}

/** What answers at `url`, on the real clock: a status, or why nothing does (refused, TLS). A redirect
 *  is refused here, before any run: the audit never follows one. */
export async function probeTarget(url: string, upstream: Upstream = LOCAL_UPSTREAM, timeoutMs = 5000): Promise<number> {
  let res: Response;
  try {
    const { ca, remote } = upstream;
    const init = { method: 'GET', headers: { accept: 'text/event-stream', ...upstream.headers }, timeoutMs, ca, remote };
    res = await loopbackFetch(null, url, init, false);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    if (/certificate|self.signed|SSL|TLS/i.test(why))
      throw new LoopbackError(`--target ${url} does not answer: ${why} (TLS: give the CA that signed its certificate with --ca FILE)`);
    throw new LoopbackError(`--target ${url} does not answer HTTP (is the server running?)`);
  }
  await res.body?.cancel().catch(() => {});
  if (res.status >= 300 && res.status < 400) throw redirectError(url, res.status, res.headers.get('location'));
  return res.status;
}

export async function targetEndpoint(
  text: string,
  tools: ToolMap = EVERYTHING_TOOLS,
  watchdog: Watchdog | null = null,
  upstream: Upstream = LOCAL_UPSTREAM,
): Promise<LoopbackEndpoint> {
  const url = checkTargetUrl(text, upstream.remote).href;
  await probeTarget(url, upstream);
  const name = `target ${url}`;
  return {
    name,
    url,
    tools,
    upstream,
    adapter: (time) => new LoopbackAdapter(name, () => url, time, null, watchdog, upstream),
    stop: async () => {},
  };
}

/** The endpoint of a served process. The client's URL is where it first answered; requests are
 *  forwarded to wherever it answers now (a restart may move it to a spare). A failure of the
 *  process (it exited on its own, or did not come back after a restart) ends the command. */
export function servedEndpoint(
  served: ServedProcess,
  tools: ToolMap = EVERYTHING_TOOLS,
  watchdog: Watchdog | null = null,
  upstream: Upstream = LOCAL_UPSTREAM,
): LoopbackEndpoint {
  const name = `serve ${served.command}`;
  if (watchdog) served.whenFailed((e) => watchdog.abort({ outcome: 'server-failed', why: e.message, run: watchdog.run, open: [] }));
  return {
    name,
    url: served.url,
    tools,
    upstream,
    liveUrl: () => served.url,
    adapter: (time) =>
      new LoopbackAdapter(
        name,
        () => served.url,
        time,
        () => served.restart(),
        watchdog,
        upstream,
      ),
    stop: () => served.stop(),
  };
}

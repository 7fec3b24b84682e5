// Ask a real server which tools it has, before the audit calls any: `tools/list` on the real clock,
// through the same upstream (headers, CA) the runs use. In 2025-11-25 after a handshake of its own
// (initialize, notifications/initialized; the session is closed with DELETE afterwards); in
// 2026-07-28 one sessionless request with the `_meta` envelope. An answer that is not a tool list
// (401, 403, a 404 at the path, a redirect) is one line for the user, not a scorecard of failures.
import { createParser } from 'eventsource-parser';
import { CLIENT_INFO, PROTOCOL_VERSION } from '../protocol/json-rpc.ts';
import { loopbackFetch } from './loopback-fetch.ts';
import { LoopbackError } from './served-process.ts';
import { redirectError, type Upstream } from './upstream.ts';

export interface DiscoveredTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; idempotentHint?: boolean; destructiveHint?: boolean };
}

type Json = Record<string, any>;
const MODERN = '2026-07-28';
const MAX_PAGES = 20;

/** What an HTTP status says to someone pointing the audit at their server. */
function statusError(url: string, rpc: string, status: number, body: string, authenticate: string | null = null): LoopbackError {
  const text = body.replace(/\s+/g, ' ').trim().slice(0, 160);
  const said = text ? `: ${text}` : '';
  if (status === 401)
    return new LoopbackError(
      `${url} answered ${rpc} with HTTP 401 Unauthorized: authentication is missing or wrong — ${authHint(body, authenticate)}`,
    );
  if (status === 403)
    return new LoopbackError(`${url} answered ${rpc} with HTTP 403 Forbidden: the credentials given are not allowed there${said}`);
  // A 404 is most often the wrong path: the MCP endpoint is elsewhere on the server.
  const path =
    status === 404 ? ' (is the MCP endpoint at another path? give it with --serve-path PATH, or the whole URL with --target)' : '';
  return new LoopbackError(`${url} answered ${rpc} with HTTP ${status}, not an MCP answer${said}${path}`);
}

/** The header a 401 asks for: Authorization where WWW-Authenticate names a scheme (or nothing names
 *  another header), else the API-key header its body names (mcp-proxy's X-API-Key). */
function authHint(body: string, authenticate: string | null): string {
  const named = /\b(x-[a-z0-9-]*(?:key|token)|api[-_]?key)\b/i.exec(body)?.[1];
  if (authenticate === null && named) {
    const header = named.toLowerCase() === 'apikey' || named.toLowerCase() === 'api_key' ? 'X-API-Key' : named;
    return `the server names ${header}: give it with --header-env ${header}=ENVVAR (or --header '${header}: …')`;
  }
  const other = authenticate === null ? '; a server that wants another header (e.g. X-API-Key) takes --header-env X-API-Key=ENVVAR' : '';
  return `give it with --header-env Authorization=ENVVAR (or --header 'Authorization: Bearer …')${other}`;
}

/** The JSON-RPC response in a body: one JSON object, or the first response event of an SSE stream. */
async function responseOf(res: Response): Promise<Json | null> {
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (type === 'application/json') {
    try {
      return JSON.parse(await res.text()) as Json;
    } catch {
      return null;
    }
  }
  if (type !== 'text/event-stream' || !res.body) return null;
  let found: Json | null = null;
  const parser = createParser({
    onEvent: (e) => {
      try {
        const m = JSON.parse(e.data) as Json;
        if (found === null && m && 'id' in m && ('result' in m || 'error' in m)) found = m;
      } catch {
        /* a priming event carries no JSON */
      }
    },
  });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  while (found === null) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  await reader.cancel().catch(() => {});
  return found;
}

class Exchange {
  private session: string | null = null;
  private id = 0;
  /** The version the server's initialize result named: a client MUST send that one after initialize
   *  (a server that speaks 2025-06-18 only refuses 2025-11-25 there). */
  negotiated: string = PROTOCOL_VERSION;

  constructor(
    private readonly url: string,
    private readonly upstream: Upstream,
    private readonly revision: string,
  ) {}

  async send(method: string, params: Json | undefined, notification = false): Promise<Json | null> {
    const headers: Record<string, string> = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...(this.session ? { 'mcp-session-id': this.session } : {}),
      ...(method !== 'initialize' ? { 'mcp-protocol-version': this.revision === MODERN ? MODERN : this.negotiated } : {}),
      ...(this.revision === MODERN ? { 'mcp-method': method } : {}),
      ...this.upstream.headers,
    };
    const message = { jsonrpc: '2.0', method, ...(notification ? {} : { id: this.id++ }), ...(params ? { params } : {}) };
    const { ca, remote } = this.upstream;
    let res: Response;
    try {
      const init = { method: 'POST', headers, body: JSON.stringify(message), timeoutMs: 30_000, ca, remote };
      res = await loopbackFetch(null, this.url, init, false);
    } catch (e) {
      throw new LoopbackError(`${this.url} did not answer ${method}: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (res.status >= 300 && res.status < 400) throw redirectError(this.url, res.status, res.headers.get('location'));
    if (res.status >= 400)
      throw statusError(this.url, method, res.status, await res.text().catch(() => ''), res.headers.get('www-authenticate'));
    this.session ??= res.headers.get('mcp-session-id');
    if (notification) {
      await res.body?.cancel().catch(() => {});
      return null;
    }
    const answer = await responseOf(res);
    if (answer === null) throw new LoopbackError(`${this.url} answered ${method} with no JSON-RPC response (HTTP ${res.status})`);
    if (answer.error)
      throw new LoopbackError(`${this.url} answered ${method} with JSON-RPC error ${answer.error.code}: ${answer.error.message}`);
    return answer.result as Json;
  }

  async close(): Promise<void> {
    if (!this.session) return;
    const { ca, remote } = this.upstream;
    const headers = { 'mcp-session-id': this.session, ...this.upstream.headers };
    await loopbackFetch(null, this.url, { method: 'DELETE', headers, timeoutMs: 5000, ca, remote }, false)
      .then((r) => r.body?.cancel())
      .catch(() => {});
  }
}

/** The server's tools, every page of them. */
export async function discoverTools(url: string, upstream: Upstream, revision: string): Promise<DiscoveredTool[]> {
  const x = new Exchange(url, upstream, revision);
  const meta =
    revision === MODERN
      ? {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
        }
      : undefined;
  try {
    if (revision !== MODERN) {
      const init = await x.send('initialize', { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO });
      if (typeof init?.protocolVersion === 'string') x.negotiated = init.protocolVersion;
      await x.send('notifications/initialized', undefined, true);
    }
    const tools: DiscoveredTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const params = { ...(cursor ? { cursor } : {}), ...(meta ? { _meta: meta } : {}) };
      const r = await x.send('tools/list', params);
      if (!Array.isArray(r?.tools)) throw new LoopbackError(`${url} answered tools/list without a tools array`);
      tools.push(...(r.tools as DiscoveredTool[]).filter((t) => typeof t?.name === 'string'));
      cursor = typeof r.nextCursor === 'string' ? r.nextCursor : undefined;
      if (!cursor) break;
    }
    return tools;
  } finally {
    await x.close();
  }
}

// The audit's probes speak to the server directly, as a client that does exactly what the spec
// says would (every header the revision asks for), with no fault network in between: a probe asks
// one question (what does a GET get? is server/discover answered?) and needs the whole answer — the
// status, the headers, the JSON-RPC message of a JSON body or of an SSE stream. Any server spec
// works: in-process presets and handlers, and servers on loopback (their adapter forwards to them).
import { createParser } from 'eventsource-parser';
import { DEFAULT_CLIENT } from '../../../models/policies.ts';
import { PROTOCOL_VERSION } from '../../wire/protocol/json-rpc.ts';
import type { ToolMap, ToolSpec } from '../../wire/protocol/tool-maps.ts';
import { Recorder } from '../../wire/protocol/recorder.ts';
import { serverFor } from '../../wire/server-for.ts';
import type { ServerAdapter } from '../../wire/net/server-adapter.ts';
import { toolsOf, type WireServerSpec } from '../../wire/setup.ts';
import { VirtualTime } from '../../wire/protocol/virtual-time.ts';
import { REAL } from '../../wire/protocol/real-timers.ts';
import { IN_PROCESS_URL } from '../../wire/world.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';
import type { Revision } from '../../../models/policies.ts';
import { malformedField } from './message-schema.ts';
import { mislabelledBody } from '../../wire/protocol/body-content.ts';

export const MODERN = '2026-07-28';
const ACCEPT_BOTH = 'application/json, text/event-stream';
const CLIENT_INFO = { name: 'mcp-faultsim audit probe', version: '0.1.0' };

export interface ProbeAnswer {
  status: number;
  contentType: string | null;
  sessionId: string | null;
  /** The JSON-RPC response (a JSON body, or the SSE event that carries it); null when there is none. */
  message: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } } | null;
  /** A body that is not an SSE stream, as text ('' for none; absent for a stream). */
  body?: string;
  /** WWW-Authenticate, where the answer carries one. */
  challenge?: string | null;
}

/** `HTTP 400 (JSON-RPC -32020) application/json`; a body its Content-Type misnames is said as what it is
 *  (`HTTP 404: JSON (JSON-RPC -32001) sent without a Content-Type`), and no body as `no body`. */
export function describeAnswer(a: ProbeAnswer): string {
  const wrong = a.body === undefined ? undefined : mislabelledBody(a.contentType, a.body);
  if (wrong !== undefined) return `HTTP ${a.status}: ${wrong}`;
  const code = a.message?.error ? ` (JSON-RPC ${a.message.error.code})` : '';
  const type = a.contentType ? ` ${a.contentType.split(';')[0]}` : a.body === '' ? ', no body' : '';
  return `HTTP ${a.status}${code}${type}`;
}

/** The 2026-07-28 `_meta` of a request. */
export function modernMeta(): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  };
}

/** Read an SSE body up to the event that carries a JSON-RPC response, then let go of the stream.
 *  `seen` is told of every JSON message on the way (progress, requests, the response). */
async function responseOfStream(body: ReadableStream<Uint8Array>, seen: (m: unknown) => void): Promise<ProbeAnswer['message']> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let found: ProbeAnswer['message'] = null;
  const parser = createParser({
    onEvent: (e) => {
      try {
        const m = JSON.parse(e.data);
        seen(m);
        if (found === null && m && typeof m === 'object' && 'id' in m && ('result' in m || 'error' in m)) found = m;
      } catch {
        /* a priming event or a keep-alive */
      }
    },
  });
  try {
    while (found === null) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return found;
}

export class ProbeClient {
  private readonly adapter: ServerAdapter;
  private n = 0;
  readonly url: string;
  readonly tools: ToolMap;

  constructor(server: WireServerSpec) {
    const setup = { client: { kind: 'model' as const, policy: DEFAULT_CLIENT }, server };
    this.adapter = serverFor(setup, new Recorder(new VirtualTime()), NO_ADDITIONS);
    this.url = server.kind === 'loopback' ? server.endpoint.url : IN_PROCESS_URL;
    this.tools = toolsOf(setup);
  }

  /** Every message received that breaks its revision's schema: `<method> → <field>: <problem>`. */
  readonly malformed: string[] = [];
  /** How many messages were checked against a schema. */
  checked = 0;

  /** One request; `body` null for a GET, whose stream (if any) is let go of once its head arrived. */
  async send(method: 'GET' | 'POST' | 'DELETE', headers: Record<string, string>, body: unknown = null): Promise<ProbeAnswer> {
    const res = await this.request(method, headers, body);
    const contentType = res.headers.get('content-type');
    const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const challenge = res.headers.get('www-authenticate');
    const asked = (body as { method?: unknown } | null)?.method;
    const seen = this.checker(headers['mcp-protocol-version'] === MODERN ? MODERN : '2025-11-25', typeof asked === 'string' ? asked : null);
    let message: ProbeAnswer['message'] = null;
    let text: string | undefined;
    if (method === 'GET' || !res.body) await res.body?.cancel().catch(() => {});
    else if (type === 'text/event-stream') message = await responseOfStream(res.body, seen);
    else {
      text = await res.text();
      try {
        message = JSON.parse(text);
      } catch {
        message = null;
      }
      // A JSON-RPC answer to a request the server accepted is checked; an HTTP error's body need not be one.
      if (message !== null && res.status < 400) seen(message);
    }
    return {
      status: res.status,
      contentType,
      sessionId: res.headers.get('mcp-session-id'),
      message,
      body: text ?? (res.body ? undefined : ''),
      challenge,
    };
  }

  private checker(revision: Revision, asked: string | null): (m: unknown) => void {
    return (m) => {
      this.checked++;
      const answers = m && typeof m === 'object' && !('method' in m) ? asked : null;
      const field = malformedField(revision, answers, m);
      if (field) this.malformed.push(`${revision} ${answers ?? (m as { method?: string })?.method ?? 'message'} → ${field}`);
    };
  }

  /** A POST whose response stream the client closes as soon as its head arrived (close-cancels): the head only. */
  async sendAndClose(headers: Record<string, string>, body: unknown): Promise<Omit<ProbeAnswer, 'message'>> {
    const res = await this.request('POST', headers, body);
    await res.body?.cancel().catch(() => {});
    return { status: res.status, contentType: res.headers.get('content-type'), sessionId: res.headers.get('mcp-session-id') };
  }

  /** A POST the client abandons after `afterMs` real ms, before its head where the server holds the head
   *  (close-cancels on a server that sends its head with the result): the connection closes either way. */
  async sendAndAbort(headers: Record<string, string>, body: unknown, afterMs: number): Promise<void> {
    const abort = new AbortController();
    const timer = REAL.setTimeout(() => abort.abort(), afterMs);
    try {
      const res = await this.request('POST', headers, body, abort.signal);
      abort.abort();
      await res.body?.cancel().catch(() => {});
    } catch {
      /* aborted before the head: what the probe meant */
    } finally {
      REAL.clearTimeout(timer);
    }
  }

  private request(
    method: 'GET' | 'POST' | 'DELETE',
    headers: Record<string, string>,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<Response> {
    const request = new Request(this.url, {
      method,
      headers: method === 'POST' ? { 'content-type': 'application/json', ...headers } : headers,
      body: body === null ? undefined : JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
    return this.adapter.handle(request, this.n++);
  }

  /** A 2025-11-25 initialize request. */
  initializeBody(): unknown {
    return {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
    };
  }

  /** A 2025-11-25 session, opened as the spec says: initialize, then notifications/initialized. Null if refused. */
  async openSession(): Promise<{ sessionId: string | null; version: string } | null> {
    const init = await this.send(
      'POST',
      { accept: ACCEPT_BOTH },
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
      },
    );
    if (init.status !== 200 || !init.message?.result) return null;
    const version = String(init.message.result.protocolVersion ?? PROTOCOL_VERSION);
    await this.send('POST', this.legacyHeaders(init.sessionId, version), { jsonrpc: '2.0', method: 'notifications/initialized' });
    return { sessionId: init.sessionId, version };
  }

  /** An initialize asking for `version`: the version the server negotiated (null when it refused), and the HTTP status. */
  async initialize(version: string): Promise<{ version: string | null; status: number }> {
    const a = await this.send(
      'POST',
      { accept: ACCEPT_BOTH },
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: CLIENT_INFO } },
    );
    const v = a.message?.result?.protocolVersion;
    return { version: a.status === 200 && typeof v === 'string' ? v : null, status: a.status };
  }

  legacyHeaders(sessionId: string | null, version: string = PROTOCOL_VERSION): Record<string, string> {
    return { accept: ACCEPT_BOTH, 'mcp-protocol-version': version, ...(sessionId ? { 'mcp-session-id': sessionId } : {}) };
  }

  /** `server/discover` (2026-07-28): the server's answer, whatever it is. */
  discover(): Promise<ProbeAnswer> {
    return this.send('POST', this.modernHeaders('server/discover'), {
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: { _meta: modernMeta() },
    });
  }

  modernHeaders(method: string, name?: string): Record<string, string> {
    return { accept: ACCEPT_BOTH, 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) };
  }

  /** A tools/call of workload call `callId` with `tool` (the plain tool unless told), as JSON-RPC request `id`. */
  callBody(id: number, callId: number, modern: boolean, tool: ToolSpec = this.tools.plain): unknown {
    const _meta = { 'io.faultsim/call': callId, ...(modern ? modernMeta() : {}) };
    return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool.name, arguments: tool.args(callId), _meta } };
  }

  async close(): Promise<void> {
    await this.adapter.close();
  }
}

// The official SDK v2's server (`@modelcontextprotocol/server` 2.4), in-process, in each revision
// it serves. Presets: `sdk2-sse` streams every answer, `sdk2-json` answers with one JSON body.
//   2025-11-25  sessions: `McpServer` + `WebStandardStreamableHTTPServerTransport`, one pair per
//               session, routed by `Mcp-Session-Id` as the v1 preset does (wire/sdk-server.ts).
//   2026-07-28  sessionless: `createMcpHandler(factory, { legacy: 'reject', responseMode })`, a fresh
//               server instance per request; a request without the `_meta` envelope is refused.
//   dual        both, the SDK's documented composition: `isLegacyRequest` routes 2025 traffic to the
//               sessionful transport and everything else to a strict 2026-07-28 handler.
// The SDK's own defaults otherwise: no event store (a cut stream cannot be resumed), SSE keep-alive
// every 15 s. Session ids count up instead of `randomUUID()`, so histories are byte-identical.
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { META_CALL } from './json-rpc.ts';
import type { ServerAdapter } from './server-adapter.ts';

export const SDK2_SERVER_PRESETS = {
  'sdk2-sse': {
    json: false,
    describe: 'official SDK v2 server, every answer an SSE stream (responseMode sse; legacy: enableJsonResponse off)',
  },
  'sdk2-json': {
    json: true,
    describe: 'official SDK v2 server, one JSON body per answer, progress dropped (responseMode json; legacy: enableJsonResponse)',
  },
} as const;
export type Sdk2ServerPreset = keyof typeof SDK2_SERVER_PRESETS;

/** The revisions a v2 server preset can serve (`server.protocol`'s values). */
export const SDK2_SERVER_PROTOCOLS = ['2025-11-25', '2026-07-28', 'dual'] as const;
export type Sdk2ServerProtocol = (typeof SDK2_SERVER_PROTOCOLS)[number];

const PROGRESS_STEPS = [50, 100];

function callOf(meta: Record<string, unknown> | undefined): number {
  const id = meta?.[META_CALL];
  return typeof id === 'number' ? id : -1;
}

/** The faultsim tool set on a v2 server: `work` returns content; `progress` and `probe` send progress first. */
export function buildMcpServer2(): McpServer {
  const server = new McpServer({ name: 'mcp-faultsim sdk2 server', version: '0.1.0' });
  server.registerTool('work', { description: 'returns non-empty content' }, async (ctx) => ({
    content: [{ type: 'text', text: `work result for call ${callOf(ctx.mcpReq._meta)}` }],
  }));
  for (const name of ['progress', 'probe']) {
    server.registerTool(name, { description: 'sends notifications/progress, then returns content' }, async (ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      if (token !== undefined) {
        for (const progress of PROGRESS_STEPS) {
          await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress, total: 100 } });
        }
      }
      return { content: [{ type: 'text', text: `${name} result for call ${callOf(ctx.mcpReq._meta)}` }] };
    });
  }
  return server;
}

/** A strict 2026-07-28 handler. In json mode the SDK warns on the console at every creation that
 *  progress is dropped (once per run here); the preset's description says so instead. */
function modernHandler(json: boolean): McpHttpHandler {
  const warn = console.warn;
  if (json) console.warn = () => {};
  try {
    return createMcpHandler(() => buildMcpServer2(), { legacy: 'reject', responseMode: json ? 'json' : 'sse' });
  } finally {
    console.warn = warn;
  }
}

export class Sdk2Server implements ServerAdapter {
  readonly notesItself = false;
  readonly name: string;
  private readonly sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; server: McpServer }>();
  private next = 1;
  private modern: McpHttpHandler | null = null;

  constructor(
    readonly preset: Sdk2ServerPreset,
    readonly protocol: Sdk2ServerProtocol,
  ) {
    this.name = `${preset} protocol=${protocol}`;
  }

  cannot(fault: 'session-expire' | 'server-restart'): string | null {
    if (fault === 'session-expire' && this.protocol === '2026-07-28') return 'a 2026-07-28 server keeps no sessions';
    return null;
  }

  async handle(request: Request): Promise<Response> {
    if (this.protocol === '2025-11-25') return this.legacy(request);
    if (this.protocol === 'dual' && (await isLegacyRequest(request))) return this.legacy(request);
    this.modern ??= modernHandler(SDK2_SERVER_PRESETS[this.preset].json);
    return this.modern.fetch(request);
  }

  /** The 2025-11-25 sessions, routed as the SDK's example server routes them. */
  private async legacy(request: Request): Promise<Response> {
    const sid = request.headers.get('mcp-session-id');
    const live = sid === null ? undefined : this.sessions.get(sid);
    if (live) return live.transport.handleRequest(request);
    let body: unknown;
    if (request.method === 'POST')
      body = await request
        .clone()
        .json()
        .catch(() => undefined);
    if (sid === null && body !== undefined && isInitializeRequest(body)) {
      const id = `sdk2-${this.next++}`;
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        enableJsonResponse: SDK2_SERVER_PRESETS[this.preset].json,
        onsessioninitialized: (sessionId) => void this.sessions.set(sessionId, { transport, server }),
      });
      const server = buildMcpServer2();
      await server.connect(transport);
      return transport.handleRequest(request, { parsedBody: body });
    }
    if (sid !== null)
      return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }, { status: 404 });
    return Response.json(
      { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } },
      { status: 400 },
    );
  }

  async expire(sessionId: string | null): Promise<string[]> {
    const ids = [...this.sessions.keys()];
    const id = sessionId !== null && this.sessions.has(sessionId) ? sessionId : ids[ids.length - 1];
    if (id === undefined) return [];
    await this.forget(id);
    return [id];
  }

  /** Forgets every session; a 2026-07-28 handler also loses its in-flight exchanges (a new one serves on). */
  async restart(): Promise<string[]> {
    const ids = [...this.sessions.keys()];
    for (const id of ids) await this.forget(id);
    const modern = this.modern;
    this.modern = null;
    // Not awaited: closing aborts response bodies msw may never settle (mswjs/interceptors#799).
    void modern?.close().catch(() => {});
    return ids;
  }

  async close(): Promise<void> {
    await this.restart();
  }

  private async forget(id: string): Promise<void> {
    const s = this.sessions.get(id);
    this.sessions.delete(id);
    await s?.server.close().catch(() => {});
  }
}

// The official SDK v2's server (`@modelcontextprotocol/server` 2.4), in-process, in each revision
// it serves. Presets: `sdk2-sse` streams every answer, `sdk2-json` answers with one JSON body.
//   2025-11-25  sessions: `McpServer` + `WebStandardStreamableHTTPServerTransport`, one pair per
//               session, routed by `Mcp-Session-Id` as the v1 preset does (wire/peers/sdk-sessions.ts).
//   2026-07-28  sessionless: `createMcpHandler(factory, { legacy: 'reject', responseMode })`, a fresh
//               server instance per request; a request without the `_meta` envelope is refused.
//   dual        both, the SDK's documented composition: `isLegacyRequest` routes 2025 traffic to the
//               sessionful transport and everything else to a strict 2026-07-28 handler.
// The SDK's own defaults otherwise: no event store (a cut stream cannot be resumed), SSE keep-alive
// every 15 s.
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { META_CALL } from '../protocol/json-rpc.ts';
import type { ServerAdapter } from '../net/server-adapter.ts';
import { SdkSessionTable } from './sdk-sessions.ts';
import { SDK2_SERVER_PRESETS, SDK2_SERVER_PROTOCOLS, type Sdk2ServerPreset, type Sdk2ServerProtocol } from './presets.ts';

export { SDK2_SERVER_PRESETS, SDK2_SERVER_PROTOCOLS, type Sdk2ServerPreset, type Sdk2ServerProtocol };

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
  private readonly sessions: SdkSessionTable<WebStandardStreamableHTTPServerTransport>;
  private modern: McpHttpHandler | null = null;

  constructor(
    readonly preset: Sdk2ServerPreset,
    readonly protocol: Sdk2ServerProtocol,
  ) {
    this.name = `${preset} protocol=${protocol}`;
    this.sessions = new SdkSessionTable('sdk2', isInitializeRequest, (id, initialized) => ({
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        enableJsonResponse: SDK2_SERVER_PRESETS[preset].json,
        onsessioninitialized: initialized,
      }),
      server: buildMcpServer2(),
    }));
  }

  cannot(fault: 'session-expire' | 'server-restart'): string | null {
    if (fault === 'session-expire' && this.protocol === '2026-07-28') return 'a 2026-07-28 server keeps no sessions';
    return null;
  }

  async handle(request: Request): Promise<Response> {
    if (this.protocol === '2025-11-25') return this.sessions.handle(request);
    if (this.protocol === 'dual' && (await isLegacyRequest(request))) return this.sessions.handle(request);
    this.modern ??= modernHandler(SDK2_SERVER_PRESETS[this.preset].json);
    return this.modern.fetch(request);
  }

  expire(sessionId: string | null): Promise<string[]> {
    return this.sessions.expire(sessionId);
  }

  /** Forgets every session; a 2026-07-28 handler also loses its in-flight exchanges (a new one serves on). */
  async restart(): Promise<string[]> {
    const ids = await this.sessions.restart();
    const modern = this.modern;
    this.modern = null;
    // Not awaited: closing aborts response bodies msw may never settle (mswjs/interceptors#799).
    void modern?.close().catch(() => {});
    return ids;
  }

  async close(): Promise<void> {
    await this.restart();
  }
}

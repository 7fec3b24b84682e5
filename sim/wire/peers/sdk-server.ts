// The official SDK's server, in-process: `McpServer` + `WebStandardStreamableHTTPServerTransport`,
// one pair per session, routed by `Mcp-Session-Id` as the SDK's own example server does (the table
// both SDK presets share: wire/peers/sdk-sessions.ts). Presets: `sdk-sse` answers requests with SSE
// streams (the SDK's default), `sdk-json` with single JSON bodies (`enableJsonResponse`). No event
// store: the transport's default, so a cut stream cannot be resumed.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { META_CALL } from '../protocol/json-rpc.ts';
import type { ServerAdapter } from '../net/server-adapter.ts';
import { SdkSessionTable } from './sdk-sessions.ts';
import { SDK_SERVER_PRESETS, type SdkServerPreset } from './presets.ts';

export { SDK_SERVER_PRESETS, type SdkServerPreset };

/** Progress the progress tool reports, in percent (the model server's steps). */
const PROGRESS_STEPS = [50, 100];

function callOf(meta: Record<string, unknown> | undefined): number {
  const id = meta?.[META_CALL];
  return typeof id === 'number' ? id : -1;
}

/** A server with a tool that returns content (`work`) and tools that send progress first (`progress`, `probe`). */
export function buildMcpServer(): McpServer {
  const server = new McpServer({ name: 'mcp-faultsim sdk server', version: '0.1.0' });
  server.registerTool('work', { description: 'returns non-empty content' }, async (extra) => ({
    content: [{ type: 'text', text: `work result for call ${callOf(extra._meta)}` }],
  }));
  for (const name of ['progress', 'probe']) {
    server.registerTool(name, { description: 'sends notifications/progress, then returns content' }, async (extra) => {
      const token = extra._meta?.progressToken;
      if (token !== undefined) {
        for (const progress of PROGRESS_STEPS) {
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total: 100 } });
        }
      }
      return { content: [{ type: 'text', text: `${name} result for call ${callOf(extra._meta)}` }] };
    });
  }
  return server;
}

export class SdkServer implements ServerAdapter {
  readonly notesItself = false;
  private readonly sessions: SdkSessionTable<WebStandardStreamableHTTPServerTransport>;

  constructor(readonly name: SdkServerPreset) {
    this.sessions = new SdkSessionTable('sdk', isInitializeRequest, (id, initialized) => ({
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        enableJsonResponse: SDK_SERVER_PRESETS[name].enableJsonResponse,
        onsessioninitialized: initialized,
      }),
      server: buildMcpServer(),
    }));
  }

  cannot(): null {
    return null;
  }

  readonly takesParsedBody = true;

  handle(request: Request, _n?: number, parsedBody?: unknown): Promise<Response> {
    return this.sessions.handle(request, parsedBody);
  }

  expire(sessionId: string | null): Promise<string[]> {
    return this.sessions.expire(sessionId);
  }

  restart(): Promise<string[]> {
    return this.sessions.restart();
  }

  async close(): Promise<void> {
    await this.restart();
  }
}

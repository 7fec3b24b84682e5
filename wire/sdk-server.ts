// The official SDK's server, in-process: `McpServer` + `WebStandardStreamableHTTPServerTransport`,
// one pair per session, routed by `Mcp-Session-Id` as the SDK's own example server does
// (examples/server/simpleStreamableHttp: a new session on an initialize without an id, 404 -32001
// for an unknown id, 400 for a non-initialize without one). Presets: `sdk-sse` answers requests
// with SSE streams (the SDK's default), `sdk-json` with single JSON bodies (`enableJsonResponse`).
// No event store: the transport's default, so a cut stream cannot be resumed. Session ids count up
// instead of `randomUUID()`, so that histories are byte-identical run to run.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { META_CALL } from './json-rpc.ts';
import type { ServerAdapter } from './server-adapter.ts';

export const SDK_SERVER_PRESETS = {
  'sdk-sse': { enableJsonResponse: false, describe: 'official SDK server, tools/call answered with SSE streams (its default)' },
  'sdk-json': { enableJsonResponse: true, describe: 'official SDK server with enableJsonResponse: tools/call answered with one JSON body' },
} as const;
export type SdkServerPreset = keyof typeof SDK_SERVER_PRESETS;

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
  private readonly sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; server: McpServer }>();
  private next = 1;

  constructor(readonly name: SdkServerPreset) {}

  cannot(): null {
    return null;
  }

  async handle(request: Request): Promise<Response> {
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
      const id = `sdk-${this.next++}`;
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        enableJsonResponse: SDK_SERVER_PRESETS[this.name].enableJsonResponse,
        onsessioninitialized: (sessionId) => void this.sessions.set(sessionId, { transport, server }),
      });
      const server = buildMcpServer();
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

  async restart(): Promise<string[]> {
    const ids = [...this.sessions.keys()];
    for (const id of ids) await this.forget(id);
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

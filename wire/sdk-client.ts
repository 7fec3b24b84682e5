// The official SDK's client, in-process: `Client` + `StreamableHTTPClientTransport`, connected as
// the SDK's own example does (examples/client/streamableHttpWithSseFallbackClient: on any connect
// failure, fall back to `SSEClientTransport` on the same URL). The SDK keeps its own request
// timeout (60 s, on virtual time) and parses every answer itself.
//
// The SDK has no reconnect or retry of its own, so around it runs the agent loop the model tier's
// clients follow: a failed call is retried once; before the retry, a call that failed because the
// session is gone (HTTP 404, the spec's "start a new session") or never connected opens a new
// session. `config-reset` does not apply: the SDK client keeps no mutable capability config.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { TextContent } from '../models/messages.ts';
import type { Workload, WorkloadStep } from '../core/workload.ts';
import { Agent } from './agent.ts';
import type { FaultNetwork } from './fault-network.ts';
import { META_CALL, type ToolMap } from './json-rpc.ts';
import type { Recorder } from './recorder.ts';
import type { ClientHooks } from './server-adapter.ts';

const INFO = { name: 'mcp-faultsim sdk client', version: '0.1.0' };

/** What the agent loop needs of an MCP client: the SDK's `Client` has it, and so may a wrapper of it. */
export interface McpClientLike {
  callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { onprogress?: (progress: unknown) => void },
  ): Promise<Record<string, unknown>>;
  listTools(params?: { _meta?: Record<string, unknown> }): Promise<{ tools: { name: string }[] }>;
  close(): Promise<void>;
}

/** A user's own client: connected to `url` (a new session each time it is called). */
export type ClientFactory = (url: URL) => Promise<McpClientLike>;

type Connection = { client: McpClientLike; close(): Promise<void> };

export function isTimeout(e: unknown): boolean {
  return (
    e instanceof McpError && e.code === ErrorCode.RequestTimeout && (e.data as { timeout?: number } | undefined)?.timeout !== undefined
  );
}

function describe(e: unknown): string {
  if (e instanceof StreamableHTTPError) return `HTTP ${e.code}: ${e.message}`;
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

function sessionGone(e: unknown): boolean {
  return e instanceof StreamableHTTPError && e.code === 404;
}

export class SdkClient implements ClientHooks {
  readonly agent: Agent;
  private connection: Promise<Connection> | null = null;
  private connects = 0;
  /** Connections that were made: closed at the end. A connect still pending then is abandoned
   *  (awaiting it could wait forever: see the close() calls below). */
  private readonly made: Connection[] = [];
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly tools: ToolMap,
    private readonly recorder: Recorder,
    private readonly network: FaultNetwork,
    workload: Workload,
    private readonly factory: ClientFactory | null = null,
  ) {
    this.agent = new Agent(workload, recorder, (callId, step) => void this.run(callId, step));
  }

  start(): void {
    this.agent.start();
  }

  configReset(): boolean {
    return false;
  }

  pendingRequest(callId: number): { req: number; attempts: number } {
    return { req: this.network.requestOfCall(callId), attempts: 1 };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const c of this.made) void c.close().catch(() => {});
  }

  private note(n: Record<string, unknown>): void {
    if (!this.closed) this.recorder.record({ kind: 'client', ...n } as never);
  }

  /** The session calls share: connected once, with the SDK example's fallback to HTTP+SSE. */
  private session(): Promise<Connection> {
    if (!this.connection) {
      this.connection = this.connect();
      this.connects++;
      this.connection.then(
        (c) => this.made.push(c),
        () => {},
      );
    }
    return this.connection;
  }

  private async connect(): Promise<Connection> {
    const url = new URL(this.url);
    this.note({ note: 'handshake-sent', handshake: this.connects === 0 ? 'connect' : 'new-session', session: null, caps: [] });
    if (this.factory) return this.connectWith(this.factory, url);
    const client = new Client(INFO);
    client.onerror = () => {};
    const streamable = new StreamableHTTPClientTransport(url);
    try {
      await client.connect(streamable);
      return { client, close: () => client.close() };
    } catch (error) {
      // Not awaited: closing may cancel an msw body, which never settles (mswjs/interceptors#799).
      void client.close().catch(() => {});
      this.note({ note: 'handshake-failed', handshake: 'connect', reason: `Streamable HTTP: ${describe(error)}` });
      this.note({ note: 'fallback', session: streamable.sessionId ?? '(none)', from: 'streamable-http', to: 'sse' });
      const legacy = new Client(INFO);
      legacy.onerror = () => {};
      const sse = new SSEClientTransport(url);
      try {
        await legacy.connect(sse);
        return { client: legacy, close: () => legacy.close() };
      } catch (sseError) {
        void legacy.close().catch(() => {});
        this.note({ note: 'handshake-failed', handshake: 'connect', reason: `HTTP+SSE: ${describe(sseError)}` });
        throw new Error(`could not connect with either transport: ${describe(error)}; ${describe(sseError)}`);
      }
    }
  }

  private async connectWith(factory: ClientFactory, url: URL): Promise<Connection> {
    try {
      const client = await factory(url);
      return { client, close: () => client.close() };
    } catch (error) {
      this.note({ note: 'handshake-failed', handshake: 'connect', reason: describe(error) });
      throw error;
    }
  }

  private async run(callId: number, step: WorkloadStep): Promise<void> {
    for (let attempt = 1; attempt <= 2; attempt++) {
      let connected = false;
      try {
        const { client } = await this.session();
        connected = true;
        const content = await this.invoke(client, callId, step);
        return this.end(callId, attempt, { end: 'result', content });
      } catch (e) {
        if (this.closed) return;
        const reason = connected ? describe(e) : `connect failed: ${describe(e)}`;
        this.note({ note: 'attempt-failed', callId, attempt, reason });
        if (attempt === 2) {
          const req = this.network.requestOfCall(callId);
          if (isTimeout(e))
            return this.end(callId, attempt, {
              end: 'deadline',
              answer: this.network.answer(req),
              serverFinished: this.network.serverFinished(req),
            });
          return this.end(callId, attempt, { end: 'error', reason });
        }
        if (!connected || sessionGone(e)) {
          this.note({ note: 'reconnect', handshake: 'new-session', reason: connected ? 'session not found' : 'connect failed' });
          this.connection = null;
        }
      }
    }
  }

  private async invoke(client: McpClientLike, callId: number, step: WorkloadStep): Promise<TextContent[]> {
    const _meta = { [META_CALL]: callId };
    if (step.method === 'tools/list') {
      const r = await client.listTools({ _meta });
      return [{ type: 'text', text: r.tools.map((t) => t.name).join(',') }];
    }
    const tool = step.progress ? this.tools.progress : this.tools.plain;
    const r = await client.callTool(
      { name: tool.name, arguments: tool.args(callId), _meta },
      undefined,
      step.progress ? { onprogress: () => {} } : {},
    );
    return ((r.content ?? []) as { type: string; text?: string }[]).map((c) => ({ type: 'text', text: c.text ?? JSON.stringify(c) }));
  }

  private end(callId: number, attempts: number, e: Parameters<Agent['end']>[3]): void {
    if (this.closed) return;
    this.agent.end(callId, attempts, this.network.requestOfCall(callId), e);
  }
}

// The official SDK's client, in-process: `Client` + `StreamableHTTPClientTransport`, connected as
// the SDK's own example does (examples/client/streamableHttpWithSseFallbackClient: on any connect
// failure, fall back to `SSEClientTransport` on the same URL). The SDK keeps its own request
// timeout (60 s, on virtual time) and parses every answer itself.
//
// Around it runs the agent loop both SDK presets share (wire/peers/sdk-agent-loop.ts). `config-reset`
// does not apply: the SDK client keeps no mutable capability config.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Workload } from '../../core/workload.ts';
import type { FaultNetwork } from '../net/fault-network.ts';
import type { ToolMap } from '../protocol/tool-maps.ts';
import type { Recorder } from '../protocol/recorder.ts';
import { SdkAgentLoop, type SdkConnection, type ToolCallParams } from './sdk-agent-loop.ts';

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

type Connection = SdkConnection<McpClientLike>;

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

export class SdkClient extends SdkAgentLoop<McpClientLike, Connection> {
  constructor(
    url: string,
    tools: ToolMap,
    recorder: Recorder,
    network: FaultNetwork,
    workload: Workload,
    private readonly factory: ClientFactory | null = null,
  ) {
    super(url, tools, recorder, network, workload);
  }

  protected describe(e: unknown): string {
    return describe(e);
  }

  protected isTimeout(e: unknown): boolean {
    return isTimeout(e);
  }

  protected sessionGone(_connection: Connection, e: unknown): boolean {
    return sessionGone(e);
  }

  /** The SDK example's connect: Streamable HTTP, falling back to HTTP+SSE on the same URL. */
  protected async connect(): Promise<Connection> {
    const url = new URL(this.url);
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

  protected callTool(client: McpClientLike, params: ToolCallParams, progress: boolean): Promise<Record<string, unknown>> {
    return client.callTool(params, undefined, progress ? { onprogress: () => {} } : {});
  }

  protected listTools(client: McpClientLike, _meta: Record<string, unknown>): Promise<{ tools: { name: string }[] }> {
    return client.listTools({ _meta });
  }
}

// The official SDK v2's client (`@modelcontextprotocol/client` 2.4), in-process: `Client` +
// `StreamableHTTPClientTransport`, in the revision `protocol` names, through the SDK's own
// `versionNegotiation` option:
//   2025-11-25  mode 'legacy' (the SDK's default): the `initialize` handshake and a session; on a
//               connect failure, the SDK example's fallback to `SSEClientTransport` on the same URL
//   2026-07-28  mode { pin: '2026-07-28' }: `server/discover` at connect, then sessionless requests
//               with the per-request `_meta` envelope; no fallback (the pin fails loudly)
//   negotiate   mode 'auto': probe with `server/discover`, fall back to `initialize` when the server
//               answers as a legacy one (and, failing that, to HTTP+SSE as the example does)
// The SDK keeps its own request timeout (60 s, on virtual time) and parses every answer itself.
//
// Around it runs the agent loop both SDK presets share (wire/peers/sdk-agent-loop.ts): a failed call is
// re-issued once, as a new request with a new id (the 2026-07-28 MUST after a broken stream; the
// legacy revision's retry-once). The v2 SDK does not re-issue by itself. `config-reset` does not
// apply: the SDK client keeps no mutable capability config.
import {
  Client,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type VersionNegotiationMode,
} from '@modelcontextprotocol/client';
import type { Workload } from '../../core/workload.ts';
import type { FaultNetwork } from '../net/fault-network.ts';
import type { ToolMap } from '../protocol/tool-maps.ts';
import type { Recorder } from '../protocol/recorder.ts';
import { SdkAgentLoop, type SdkConnection, type ToolCallParams, type ToolResult } from './sdk-agent-loop.ts';
import { SDK2_CLIENT_PROTOCOLS, type Sdk2ClientProtocol } from './presets.ts';

export { SDK2_CLIENT_PROTOCOLS, type Sdk2ClientProtocol };

const INFO = { name: 'mcp-faultsim sdk2 client', version: '0.1.0' };

const MODE: Record<Sdk2ClientProtocol, VersionNegotiationMode> = {
  '2025-11-25': 'legacy',
  '2026-07-28': { pin: '2026-07-28' },
  negotiate: 'auto',
};

type Connection = SdkConnection<Client> & { era: string };

export function isTimeout2(e: unknown): boolean {
  return (
    e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout && (e.data as { timeout?: number } | undefined)?.timeout !== undefined
  );
}

function describe(e: unknown): string {
  if (e instanceof SdkHttpError) return `HTTP ${e.status}: ${e.message}`;
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

export class Sdk2Client extends SdkAgentLoop<Client, Connection> {
  constructor(
    private readonly protocol: Sdk2ClientProtocol,
    url: string,
    tools: ToolMap,
    recorder: Recorder,
    network: FaultNetwork,
    workload: Workload,
  ) {
    super(url, tools, recorder, network, workload);
  }

  protected describe(e: unknown): string {
    return describe(e);
  }

  protected isTimeout(e: unknown): boolean {
    return isTimeout2(e);
  }

  /** A 404 ends a legacy session (the spec's "start a new session"); a 2026-07-28 request has none. */
  protected sessionGone(connection: Connection, e: unknown): boolean {
    return connection.era === 'legacy' && e instanceof SdkHttpError && e.status === 404;
  }

  private newClient(): Client {
    const client = new Client(INFO, { versionNegotiation: { mode: MODE[this.protocol] } });
    client.onerror = () => {};
    return client;
  }

  protected async connect(): Promise<Connection> {
    const url = new URL(this.url);
    const client = this.newClient();
    const streamable = new StreamableHTTPClientTransport(url);
    try {
      await client.connect(streamable);
      return { client, era: client.getProtocolEra() ?? '?', close: () => client.close() };
    } catch (error) {
      // Not awaited: closing may cancel an msw body, which never settles (mswjs/interceptors#799).
      void client.close().catch(() => {});
      this.note({ note: 'handshake-failed', handshake: 'connect', reason: `Streamable HTTP: ${describe(error)}` });
      if (this.protocol === '2026-07-28') throw new Error(`could not connect: ${describe(error)}`);
      this.note({ note: 'fallback', session: streamable.sessionId ?? '(none)', from: 'streamable-http', to: 'sse' });
      const legacy = new Client(INFO);
      legacy.onerror = () => {};
      try {
        await legacy.connect(new SSEClientTransport(url));
        return { client: legacy, era: 'legacy', close: () => legacy.close() };
      } catch (sseError) {
        void legacy.close().catch(() => {});
        this.note({ note: 'handshake-failed', handshake: 'connect', reason: `HTTP+SSE: ${describe(sseError)}` });
        throw new Error(`could not connect with either transport: ${describe(error)}; ${describe(sseError)}`);
      }
    }
  }

  protected callTool(client: Client, params: ToolCallParams, progress: boolean): Promise<ToolResult> {
    return client.callTool(params, progress ? { onprogress: () => {} } : {});
  }

  protected listTools(client: Client, _meta: Record<string, unknown>): Promise<{ tools: { name: string }[] }> {
    return client.listTools({ _meta });
  }

  /** The v2 SDK checks a result's shape: its content is always there. */
  protected override contentOf(r: ToolResult): { type: string; text?: string }[] {
    return r.content as { type: string; text?: string }[];
  }
}

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
// Around it runs the agent loop the v1 preset runs (wire/sdk-client.ts): a failed call is re-issued
// once, as a new request with a new id (the 2026-07-28 MUST after a broken stream; the legacy
// revision's retry-once); before that, a call that failed because the session is gone (HTTP 404 on
// a legacy session) or never connected connects again. The v2 SDK does not re-issue by itself.
// `config-reset` does not apply: the SDK client keeps no mutable capability config.
import {
  Client,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type VersionNegotiationMode,
} from '@modelcontextprotocol/client';
import type { TextContent } from '../models/messages.ts';
import type { Workload, WorkloadStep } from '../core/workload.ts';
import { Agent } from './agent.ts';
import type { FaultNetwork } from './fault-network.ts';
import { META_CALL, type ToolMap } from './json-rpc.ts';
import type { Recorder } from './recorder.ts';
import type { ClientHooks } from './server-adapter.ts';

/** The revisions the v2 client preset can speak (`client.protocol`'s values). */
export const SDK2_CLIENT_PROTOCOLS = ['2025-11-25', '2026-07-28', 'negotiate'] as const;
export type Sdk2ClientProtocol = (typeof SDK2_CLIENT_PROTOCOLS)[number];

const INFO = { name: 'mcp-faultsim sdk2 client', version: '0.1.0' };

const MODE: Record<Sdk2ClientProtocol, VersionNegotiationMode> = {
  '2025-11-25': 'legacy',
  '2026-07-28': { pin: '2026-07-28' },
  negotiate: 'auto',
};

type Connection = { client: Client; era: string; close(): Promise<void> };

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

export class Sdk2Client implements ClientHooks {
  readonly agent: Agent;
  private connection: Promise<Connection> | null = null;
  private connects = 0;
  /** Connections that were made: closed at the end. A connect still pending then is abandoned. */
  private readonly made: Connection[] = [];
  private closed = false;

  constructor(
    private readonly protocol: Sdk2ClientProtocol,
    private readonly url: string,
    private readonly tools: ToolMap,
    private readonly recorder: Recorder,
    private readonly network: FaultNetwork,
    workload: Workload,
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

  private newClient(): Client {
    const client = new Client(INFO, { versionNegotiation: { mode: MODE[this.protocol] } });
    client.onerror = () => {};
    return client;
  }

  private async connect(): Promise<Connection> {
    const url = new URL(this.url);
    this.note({ note: 'handshake-sent', handshake: this.connects === 0 ? 'connect' : 'new-session', session: null, caps: [] });
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

  private async run(callId: number, step: WorkloadStep): Promise<void> {
    for (let attempt = 1; attempt <= 2; attempt++) {
      let connection: Connection | null = null;
      try {
        connection = await this.session();
        const content = await this.invoke(connection.client, callId, step);
        return this.end(callId, attempt, { end: 'result', content });
      } catch (e) {
        if (this.closed) return;
        const reason = connection ? describe(e) : `connect failed: ${describe(e)}`;
        this.note({ note: 'attempt-failed', callId, attempt, reason });
        if (attempt === 2) {
          const req = this.network.requestOfCall(callId);
          if (isTimeout2(e))
            return this.end(callId, attempt, {
              end: 'deadline',
              answer: this.network.answer(req),
              serverFinished: this.network.serverFinished(req),
            });
          return this.end(callId, attempt, { end: 'error', reason });
        }
        // A 404 ends a legacy session (the spec's "start a new session"); a 2026-07-28 request has none.
        const sessionGone = connection?.era === 'legacy' && e instanceof SdkHttpError && e.status === 404;
        if (!connection || sessionGone) {
          this.note({ note: 'reconnect', handshake: 'new-session', reason: connection ? 'session not found' : 'connect failed' });
          this.connection = null;
        }
      }
    }
  }

  private async invoke(client: Client, callId: number, step: WorkloadStep): Promise<TextContent[]> {
    const _meta = { [META_CALL]: callId };
    if (step.method === 'tools/list') {
      const r = await client.listTools({ _meta });
      return [{ type: 'text', text: r.tools.map((t) => t.name).join(',') }];
    }
    const tool = step.progress ? this.tools.progress : this.tools.plain;
    const r = await client.callTool(
      { name: tool.name, arguments: tool.args(callId), _meta },
      step.progress ? { onprogress: () => {} } : {},
    );
    return (r.content as { type: string; text?: string }[]).map((c) => ({ type: 'text', text: c.text ?? JSON.stringify(c) }));
  }

  private end(callId: number, attempts: number, e: Parameters<Agent['end']>[3]): void {
    if (this.closed) return;
    this.agent.end(callId, attempts, this.network.requestOfCall(callId), e);
  }
}

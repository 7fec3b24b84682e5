// The agent loop both official SDK clients run (wire/peers/sdk-client.ts for v1, wire/peers/sdk2-client.ts for
// v2): the SDKs have no reconnect or re-issue of their own, so around them runs the loop the model
// tier's clients follow. A failed call is re-issued once, as a new request; before that, a call that
// failed because the session is gone (HTTP 404, the spec's "start a new session") or never connected
// connects again. One session is shared by the calls; connections are closed at the end, and a
// connect still pending then is abandoned (awaiting it could wait forever: mswjs/interceptors#799).
// A preset says how to connect and call with its SDK, and how its errors read; the loop is here once.
import type { TextContent } from '../../../models/messages.ts';
import type { Workload, WorkloadStep } from '../../core/workload.ts';
import { Agent, type WireCallEnd } from '../protocol/agent.ts';
import type { FaultNetwork } from '../net/fault-network.ts';
import { META_CALL } from '../protocol/json-rpc.ts';
import type { ToolMap } from '../protocol/tool-maps.ts';
import type { Recorder } from '../protocol/recorder.ts';
import type { ClientHooks } from '../net/server-adapter.ts';

/** A connected client of some SDK, and how to close it. */
export interface SdkConnection<C> {
  client: C;
  close(): Promise<void>;
}

/** A tool call's params, as both SDKs take them. */
export interface ToolCallParams {
  name: string;
  arguments: Record<string, unknown>;
  _meta: Record<string, unknown>;
}

/** A tool call's result as the loop reads it: its content (each SDK checks the rest). */
export type ToolResult = { content?: unknown };
type Content = { type: string; text?: string }[];

export abstract class SdkAgentLoop<C, K extends SdkConnection<C>> implements ClientHooks {
  readonly agent: Agent;
  private connection: Promise<K> | null = null;
  /** How many connects were started: the first is `connect`, the later ones `new-session`. */
  private connects = 0;
  private readonly made: K[] = [];
  private closed = false;

  constructor(
    protected readonly url: string,
    private readonly tools: ToolMap,
    private readonly recorder: Recorder,
    private readonly network: FaultNetwork,
    workload: Workload,
  ) {
    this.agent = new Agent(workload, recorder, (callId, step) => void this.run(callId, step));
  }

  /** Connect a new session (its `handshake-sent` note is already written). */
  protected abstract connect(): Promise<K>;
  /** The SDK's own promises, unwrapped by the loop (no extra step between the SDK and the agent). */
  protected abstract callTool(client: C, params: ToolCallParams, progress: boolean): Promise<ToolResult>;
  protected abstract listTools(client: C, meta: Record<string, unknown>): Promise<{ tools: { name: string }[] }>;
  /** A result's content: v1 (and a user's own client) may have none; v2 SDK results always do. */
  protected contentOf(r: ToolResult): Content {
    return (r.content ?? []) as Content;
  }
  /** An error as one line of the history. */
  protected abstract describe(e: unknown): string;
  /** Whether the SDK's own request timeout ended the call. */
  protected abstract isTimeout(e: unknown): boolean;
  /** Whether the error says the session is gone, so that the re-issue needs a new one. */
  protected abstract sessionGone(connection: K, e: unknown): boolean;

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

  protected note(n: Record<string, unknown>): void {
    if (!this.closed) this.recorder.record({ kind: 'client', ...n } as never);
  }

  /** The session calls share: connected once. */
  private session(): Promise<K> {
    if (!this.connection) {
      this.note({ note: 'handshake-sent', handshake: this.connects === 0 ? 'connect' : 'new-session', session: null, caps: [] });
      this.connection = this.connect();
      this.connects++;
      this.connection.then(
        (c) => this.made.push(c),
        () => {},
      );
    }
    return this.connection;
  }

  private async run(callId: number, step: WorkloadStep): Promise<void> {
    for (let attempt = 1; attempt <= 2; attempt++) {
      let connection: K | null = null;
      try {
        connection = await this.session();
        const content = await this.invoke(connection.client, callId, step);
        return this.end(callId, attempt, { end: 'result', content });
      } catch (e) {
        if (this.closed) return;
        const reason = connection ? this.describe(e) : `connect failed: ${this.describe(e)}`;
        this.note({ note: 'attempt-failed', callId, attempt, reason });
        if (attempt === 2) {
          const req = this.network.requestOfCall(callId);
          if (this.isTimeout(e))
            return this.end(callId, attempt, {
              end: 'deadline',
              answer: this.network.answer(req),
              serverFinished: this.network.serverFinished(req),
            });
          return this.end(callId, attempt, { end: 'error', reason });
        }
        if (!connection || this.sessionGone(connection, e)) {
          this.note({ note: 'reconnect', handshake: 'new-session', reason: connection ? 'session not found' : 'connect failed' });
          this.connection = null;
        }
      }
    }
  }

  private async invoke(client: C, callId: number, step: WorkloadStep): Promise<TextContent[]> {
    const _meta = { [META_CALL]: callId };
    if (step.method === 'tools/list') {
      const r = await this.listTools(client, _meta);
      return [{ type: 'text', text: r.tools.map((t) => t.name).join(',') }];
    }
    const tool = step.progress ? this.tools.progress : this.tools.plain;
    const r = await this.callTool(client, { name: tool.name, arguments: tool.args(callId), _meta }, step.progress);
    return this.contentOf(r).map((c) => ({ type: 'text', text: c.text ?? JSON.stringify(c) }));
  }

  private end(callId: number, attempts: number, e: WireCallEnd): void {
    if (this.closed) return;
    this.agent.end(callId, attempts, this.network.requestOfCall(callId), e);
  }
}

// A client under test that is another process (any language): `sh -c CMD` in its own process group
// (process-groups.ts ends it on every exit path), driven over a JSON-lines protocol on its stdin and
// stdout (examples/clients/README.md). The tool says what to do; the harness does it with its MCP
// client and says how each call ended:
//   → {"op":"connect","url":U,"timeoutMs":T,"revision":R} ← {"event":"connected","revision":R'} | {"event":"connect-failed","error":E}
//   → {"op":"call","id":n,"tool":NAME,"arguments":{…},"progress":bool,"meta":{…}}
//   → {"op":"list","id":n,"meta":{…}}                    ← {"id":n,"result":{"content":[…]}} | {"id":n,"error":E}
//   → {"op":"close"}                                      (the harness closes its client and exits)
// E is {"message":…,"kind":"timeout"|"session"|"connect"|"unsupported-revision"|"other"}; `meta` goes
// into the request's `_meta` (it names the workload call, so the network can tie requests to calls).
// R is 2025-11-25, 2026-07-28 or `default` (the library's own choice); R' is the revision the harness
// spoke (absent from an older harness: 2025-11-25), recorded as a `discovered` client note.
// With the agent loop on (the default), the same loop as around the in-process SDK client
// (sdk-client.ts) runs around the harness: a failed call is retried once, after a new `connect` when
// the session is gone (`session`) or never came (`connect`). With it off, each call is tried once and
// the client is never reconnected: what the history shows is what the library did on its own. Either
// way a `timeout` error on the last attempt ends the call by deadline.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { TextContent } from '../../../models/messages.ts';
import type { Workload, WorkloadStep } from '../../core/workload.ts';
import { Agent, type WireCallEnd } from '../protocol/agent.ts';
import type { FaultNetwork } from '../net/fault-network.ts';
import { META_CALL } from '../protocol/json-rpc.ts';
import type { ToolMap } from '../protocol/tool-maps.ts';
import { adoptGroup, endGroup } from './process-groups.ts';
import type { Recorder } from '../protocol/recorder.ts';
import type { ClientHooks } from '../net/server-adapter.ts';
import { withinRealMs } from '../protocol/real-timers.ts';

/** The harness's own request timeout, real ms: shorter than the proxy's cap on a `delay:` (wall-time.ts). */
export const CMD_CLIENT_TIMEOUT_MS = 5000;

/** What `connect` asks for: a revision, or the library's own default. */
export type HarnessRevision = '2025-11-25' | '2026-07-28' | 'default';
export const HARNESS_REVISIONS: readonly HarnessRevision[] = ['2025-11-25', '2026-07-28', 'default'];

/** The harness's answer to a `connect` it cannot speak (the history's handshake-failed reason starts so). */
export const UNSUPPORTED_REVISION = 'unsupported-revision';

export interface CmdClientOptions {
  revision?: HarnessRevision;
  /** Retry once and reconnect after a gone session (true, the default); false: the library alone. */
  agentLoop?: boolean;
  /** The request timeout the agent sets through the library's option (default CMD_CLIENT_TIMEOUT_MS);
   *  null: none, sent as `timeoutMs: null` (the harness passes no timeout: the library's own default). */
  timeoutMs?: number | null;
}

interface HarnessError {
  message: string;
  kind: 'timeout' | 'session' | 'connect' | 'unsupported-revision' | 'other';
}

type Reply = { result: { content?: { type: string; text?: string }[] } } | { error: HarnessError };

function harnessError(e: unknown): HarnessError {
  const o = (e ?? {}) as Partial<HarnessError>;
  const kind = o.kind === 'timeout' || o.kind === 'session' || o.kind === 'connect' || o.kind === UNSUPPORTED_REVISION ? o.kind : 'other';
  return { message: typeof o.message === 'string' ? o.message : JSON.stringify(e), kind };
}

export class CmdClient implements ClientHooks {
  readonly agent: Agent;
  private child: ChildProcess | null = null;
  private nextOp = 0;
  private readonly replies = new Map<number, (r: Reply) => void>();
  private connection: Promise<void> | null = null;
  private connectWaiter: ((error: HarnessError | null) => void) | null = null;
  private connects = 0;
  private closed = false;
  /** The harness's first stderr lines: where a process that cannot start names its cause. */
  private readonly stderrHead: string[] = [];
  private readonly revision: HarnessRevision;
  private readonly agentLoop: boolean;
  private readonly timeoutMs: number | null;
  /** Set when the process has ended: every call still waiting fails with it. */
  private gone: string | null = null;

  constructor(
    private readonly command: string,
    private readonly url: string,
    private readonly tools: ToolMap,
    private readonly recorder: Recorder,
    private readonly network: FaultNetwork,
    workload: Workload,
    options: CmdClientOptions = {},
  ) {
    this.revision = options.revision ?? 'default';
    this.agentLoop = options.agentLoop ?? true;
    this.timeoutMs = options.timeoutMs === undefined ? CMD_CLIENT_TIMEOUT_MS : options.timeoutMs;
    this.agent = new Agent(workload, recorder, (callId, step) => void this.run(callId, step));
  }

  start(): void {
    const child = spawn('sh', ['-c', this.command], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    adoptGroup(child);
    child.stdin!.on('error', () => {});
    createInterface({ input: child.stdout! }).on('line', (line) => this.onLine(line));
    createInterface({ input: child.stderr! }).on('line', (line) => {
      if (this.stderrHead.length < STDERR_LINES_KEPT) this.stderrHead.push(line);
    });
    child.once('error', (e) => this.ended(`could not start: ${e.message}`));
    child.once('exit', (code, signal) => this.ended(`exited (${signal ?? `status ${code}`})`));
    this.agent.start();
  }

  configReset(): boolean {
    return false;
  }

  pendingRequest(callId: number): { req: number; attempts: number } {
    return { req: this.network.requestOfCall(callId), attempts: 1 };
  }

  /** Ask the harness to close, then end its process group whatever it does. */
  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    if (!child) return;
    this.send({ op: 'close' });
    child.stdin?.end();
    if (child.exitCode === null && child.signalCode === null) {
      await withinRealMs(new Promise((r) => child.once('exit', r)), 1000, undefined);
    }
    await endGroup(child, 1000);
  }

  private send(op: Record<string, unknown>): void {
    if (this.gone === null) this.child?.stdin?.write(`${JSON.stringify(op)}\n`);
  }

  private ended(why: string): void {
    if (this.gone !== null) return;
    const cause = causeLine(this.stderrHead);
    this.gone = `client process ${why}${cause ? `: ${cause}` : ''}`;
    this.connectWaiter?.({ message: this.gone, kind: 'other' });
    for (const reply of [...this.replies.values()]) reply({ error: { message: this.gone, kind: 'other' } });
    this.replies.clear();
  }

  private onLine(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return; // not the protocol (a harness's stray print): ignored
    }
    if (parsed === null || typeof parsed !== 'object') return;
    const m = parsed as {
      event?: unknown;
      id?: unknown;
      error?: unknown;
      revision?: unknown;
      result?: { content?: { type: string; text?: string }[] };
    };
    if (m.event === 'connected') {
      // An older harness does not say: it speaks 2025-11-25, the only revision the protocol had.
      const spoke = m.revision === '2026-07-28' || m.revision === '2025-11-25' ? m.revision : '2025-11-25';
      this.note({ note: 'discovered', revision: spoke, reason: `the harness spoke ${spoke} (asked: ${this.revision})` });
      this.connectWaiter?.(null);
    } else if (m.event === 'connect-failed') this.connectWaiter?.(harnessError(m.error));
    else if (typeof m.id === 'number' && this.replies.has(m.id)) {
      const reply = this.replies.get(m.id)!;
      this.replies.delete(m.id);
      reply('error' in m ? { error: harnessError(m.error) } : { result: m.result ?? {} });
    }
  }

  private note(n: Record<string, unknown>): void {
    if (!this.closed) this.recorder.record({ kind: 'client', ...n } as never);
  }

  private session(): Promise<void> {
    if (this.connection) return this.connection;
    this.note({ note: 'handshake-sent', handshake: this.connects++ === 0 ? 'connect' : 'new-session', session: null, caps: [] });
    this.connection = new Promise<void>((resolve, reject) => {
      if (this.gone !== null) return reject({ message: this.gone, kind: 'other' });
      this.connectWaiter = (error) => {
        this.connectWaiter = null;
        if (error) {
          const reason = error.kind === UNSUPPORTED_REVISION ? `${UNSUPPORTED_REVISION}: ${error.message}` : error.message;
          this.note({ note: 'handshake-failed', handshake: 'connect', reason });
          reject(error);
        } else resolve();
      };
      this.send({ op: 'connect', url: this.url, timeoutMs: this.timeoutMs, revision: this.revision });
    });
    this.connection.catch(() => {});
    return this.connection;
  }

  private ask(op: Record<string, unknown>): Promise<Reply> {
    const id = this.nextOp++;
    return new Promise((resolve) => {
      if (this.gone !== null) return resolve({ error: { message: this.gone, kind: 'other' } });
      this.replies.set(id, resolve);
      this.send({ ...op, id });
    });
  }

  private async run(callId: number, step: WorkloadStep): Promise<void> {
    const last = this.agentLoop ? 2 : 1;
    for (let attempt = 1; attempt <= last; attempt++) {
      let error: HarnessError;
      try {
        await this.session();
        const meta = { [META_CALL]: callId };
        const tool = step.progress ? this.tools.progress : this.tools.plain;
        const reply = await this.ask(
          step.method === 'tools/list'
            ? { op: 'list', meta }
            : { op: 'call', tool: tool.name, arguments: tool.args(callId), progress: step.progress, meta },
        );
        if ('result' in reply) return this.end(callId, attempt, { end: 'result', content: contentOf(reply.result.content) });
        error = reply.error;
      } catch (e) {
        error = { ...harnessError(e), kind: 'connect' };
      }
      if (this.closed) return;
      this.note({ note: 'attempt-failed', callId, attempt, reason: error.message });
      if (attempt === last) {
        const req = this.network.requestOfCall(callId);
        if (error.kind === 'timeout')
          return this.end(callId, attempt, {
            end: 'deadline',
            answer: this.network.answer(req),
            serverFinished: this.network.serverFinished(req),
          });
        return this.end(callId, attempt, { end: 'error', reason: error.message });
      }
      if (error.kind === 'session' || error.kind === 'connect') {
        this.note({
          note: 'reconnect',
          handshake: 'new-session',
          reason: error.kind === 'session' ? 'session not found' : 'connect failed',
        });
        this.connection = null;
      }
    }
  }

  private end(callId: number, attempts: number, e: WireCallEnd): void {
    if (!this.closed) this.agent.end(callId, attempts, this.network.requestOfCall(callId), e);
  }
}

const STDERR_LINES_KEPT = 200;
/** A line that names an error: `Error: Cannot find module …`, `ModuleNotFoundError: …`, `sh: 1: x: not found`. */
const ERROR_LINE = /^\s*(?:[\w.]*(?:Error|Exception)\b|error\b|fatal\b|sh: .*(?:not found|No such file))/i;

/** The first line of a harness's stderr that names an error (a stack's header, not the runtime's
 *  version banner under it), else its last line, else ''. */
export function causeLine(lines: readonly string[]): string {
  return (lines.find((l) => ERROR_LINE.test(l)) ?? lines.at(-1) ?? '').trim();
}

function contentOf(content: { type: string; text?: string }[] | undefined): TextContent[] {
  return (content ?? []).map((c) => ({ type: 'text', text: c.text ?? JSON.stringify(c) }));
}

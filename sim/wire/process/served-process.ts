// A server the tool starts itself (`--serve CMD`): `sh -c CMD` on a free loopback port ({port} in the
// command and $PORT), in its own process group (process-groups.ts ends it on every exit path), ready
// once anything answers HTTP at its URL. A `server-restart` stops it and starts a fresh one.
//
// Restarts are what a real server costs: the process must exit and a new one boot (≈ 1–2 s for a
// Node server here). So, once a plan has restarted the server, a spare is kept booted on another port:
// the next restart ends the current process and switches to the spare at once, then boots a new spare
// in the background. The address the client uses never changes (the fault network answers it); only
// where the adapter forwards to does (`url`). Runs whose plans do not restart it share one process.
//
// Restarts are serialized (two requests in flight may each carry one), and a process that exits on
// its own, or cannot be started again, is a failure of the run (`failed`), never a silent 502.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { loopbackFetch } from './loopback-fetch.ts';
import { adoptGroup, endGroup } from './process-groups.ts';
import { realSleep } from '../protocol/real-timers.ts';

/** A server that would not start, or that ended on its own: one line for the user. */
export class LoopbackError extends Error {
  override name = 'LoopbackError';
}

export interface ServeOptions {
  /** The MCP endpoint path (default /mcp). */
  path?: string;
  /** Real ms a start may take before it is a failure. */
  startTimeoutMs?: number;
  /** Keep a booted spare after the first restart (default true). */
  spare?: boolean;
}

/** Does anything answer HTTP at `url`? Any status counts: the server is up. On the real clock. */
export async function answersHttp(url: string, timeoutMs = 2000): Promise<boolean> {
  try {
    const res = await loopbackFetch(null, url, { method: 'GET', headers: { accept: 'text/event-stream' }, timeoutMs }, false);
    await res.body?.cancel().catch(() => {});
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** One booted process of the command. */
class Instance {
  stderr = '';
  /** Set when it exited; `expected` when the tool ended it. */
  exit: { status: string; expected: boolean } | null = null;
  private stopping = false;

  constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly url: string,
    onUnexpectedExit: (i: Instance) => void,
  ) {
    adoptGroup(child);
    child.stderr?.on('data', (d) => (this.stderr = (this.stderr + String(d)).slice(-2000)));
    child.once('exit', (code, signal) => {
      this.exit = { status: code !== null ? `status ${code}` : `signal ${signal}`, expected: this.stopping };
      if (!this.stopping) onUnexpectedExit(this);
    });
  }

  lastLine(): string {
    return this.stderr.trim().split('\n').pop() || '(no output on stderr)';
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await endGroup(this.child);
  }
}

export class ServedProcess {
  private current: Instance | null = null;
  /** The last address it answered at: during a restart, requests go there and find nothing (a 502). */
  private lastUrl = '';
  /** Old processes still being ended in the background. */
  private readonly ending = new Set<Promise<void>>();
  private spare: Promise<Instance> | null = null;
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  private failure: LoopbackError | null = null;
  private readonly onFailure = new Set<(e: LoopbackError) => void>();
  /** Restarts done, and how many of them switched to a booted spare. */
  readonly restarts = { total: 0, fromSpare: 0 };

  private constructor(
    readonly command: string,
    private readonly path: string,
    private readonly options: Required<Omit<ServeOptions, 'path'>>,
  ) {}

  static async start(command: string, options: ServeOptions = {}): Promise<ServedProcess> {
    const path = options.path ?? '/mcp';
    const resolved = { startTimeoutMs: options.startTimeoutMs ?? 20_000, spare: options.spare ?? true };
    const p = new ServedProcess(command, path.startsWith('/') ? path : `/${path}`, resolved);
    p.current = await p.boot();
    return p;
  }

  /** Where the server answers now (it moves when a restart switches to the spare). */
  get url(): string {
    if (this.current) this.lastUrl = this.current.url;
    return this.lastUrl;
  }

  /** Why the server can no longer be used, once it cannot (it exited on its own, or did not come back). */
  get failed(): LoopbackError | null {
    return this.failure;
  }

  /** Called once with the failure, when there is one. */
  whenFailed(f: (e: LoopbackError) => void): () => void {
    if (this.failure) f(this.failure);
    else this.onFailure.add(f);
    return () => this.onFailure.delete(f);
  }

  private fail(e: LoopbackError): void {
    if (this.failure || this.stopped) return;
    this.failure = e;
    for (const f of this.onFailure) f(e);
  }

  private async boot(): Promise<Instance> {
    const port = await freePort();
    const cmd = this.command.replaceAll('{port}', String(port));
    const env = { ...process.env, PORT: String(port) };
    const child = spawn('sh', ['-c', cmd], { env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    const instance = new Instance(child, port, `http://127.0.0.1:${port}${this.path}`, (i) => {
      if (i === this.current) this.fail(new LoopbackError(`--serve server exited on its own (${i.exit?.status}): ${i.lastLine()}`));
    });
    const tries = this.options.startTimeoutMs / 50;
    for (let i = 0; i < tries; i++) {
      if (this.stopped) {
        await instance.stop();
        throw new LoopbackError(`--serve ${this.command}: stopped while starting`);
      }
      if (instance.exit) {
        throw new LoopbackError(
          `--serve command exited with ${instance.exit.status} before answering on port ${port}: ${instance.lastLine()}`,
        );
      }
      if (await answersHttp(instance.url)) return instance;
      await realSleep(50);
    }
    await instance.stop();
    const within = this.options.startTimeoutMs / 1000;
    throw new LoopbackError(
      `--serve command did not answer at ${instance.url} within ${within} s: ${instance.lastLine()} (a slow server: raise --boot-timeout SECONDS, or start it yourself and give its URL with --target)`,
    );
  }

  /** Forget every session: end the current process and run a fresh one. Serialized. */
  restart(): Promise<void> {
    const next = this.queue.then(() => this.restartNow());
    this.queue = next.catch(() => {});
    return next;
  }

  private async restartNow(): Promise<void> {
    if (this.stopped) return;
    const old = this.current;
    this.current = null;
    try {
      const spare = this.spare;
      this.spare = null;
      if (spare) {
        const ready = await spare.catch(() => null);
        if (ready && !ready.exit) {
          this.current = ready;
          this.restarts.fromSpare++;
        }
      }
      const stopping = old ? this.endInBackground(old) : Promise.resolve();
      if (!this.current) {
        await stopping;
        this.current = await this.boot();
      }
      this.restarts.total++;
      if (this.options.spare && !this.stopped) this.spare = this.boot();
      this.spare?.catch(() => {});
    } catch (e) {
      const err = e instanceof LoopbackError ? e : new LoopbackError(String(e));
      this.fail(new LoopbackError(`--serve server did not come back after a restart: ${err.message}`));
      throw err;
    }
  }

  private endInBackground(i: Instance): Promise<void> {
    const p = i.stop().finally(() => this.ending.delete(p));
    this.ending.add(p);
    return p;
  }

  /** End every process it started (current, spare, those still ending); idempotent. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.queue;
    const current = this.current;
    this.current = null;
    const spare = this.spare;
    this.spare = null;
    await Promise.all([
      current?.stop(),
      spare?.then(
        (s) => s.stop(),
        () => {},
      ),
      ...this.ending,
    ]);
  }
}

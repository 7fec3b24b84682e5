// A real MCP server on loopback behind the fault network: `--target http://127.0.0.1:PORT/mcp` (a
// server the user runs) or `--serve "<command with {port}>"` (the tool starts it on a free loopback
// port with PORT set, waits until it answers, restarts it for `server-restart`, stops it at the
// end). The client fetches the real URL; msw intercepts it, the network applies the plan, and the
// request goes on to the server with msw's `bypass`. Only loopback addresses are accepted.
// `session-expire` needs the server's cooperation and is skipped (and reported) against both;
// `server-restart` is skipped against `--target`, which the tool did not start.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { EVERYTHING_TOOLS, type ToolMap } from './json-rpc.ts';
import { loopbackFetch } from './loopback-fetch.ts';
import type { ServerAdapter } from './server-adapter.ts';
import { realSleep, type VirtualTime } from './virtual-time.ts';

/** Bad `--target`/`--serve` input, or a server that would not start: one line for the user. */
export class LoopbackError extends Error {
  override name = 'LoopbackError';
}

export interface LoopbackEndpoint {
  name: string;
  url: string;
  tools: ToolMap;
  adapter(time: VirtualTime): ServerAdapter;
  stop(): Promise<void>;
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])$/;

export function checkLoopbackUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new LoopbackError(`--target '${text}' is not a URL (use http://127.0.0.1:PORT/mcp)`);
  }
  if (url.protocol !== 'http:') throw new LoopbackError(`--target '${text}' must be an http:// URL on loopback`);
  if (!LOOPBACK.test(url.hostname)) throw new LoopbackError(`--target '${text}' is not a loopback address (127.0.0.0/8, localhost or [::1]); the wire tier sends traffic to nothing else`);
  return url;
}

/** Does anything answer HTTP at `url`? Any status counts: the server is up. On the real clock
 *  (the worker), since a restart happens in the middle of a run, whose timers are virtual. */
async function answers(url: string): Promise<boolean> {
  try {
    const res = await loopbackFetch(null, url, { method: 'GET', headers: { accept: 'text/event-stream' }, timeoutMs: 2000 }, false);
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

class LoopbackAdapter implements ServerAdapter {
  readonly notesItself = false;
  /** Ends what the run left open at its close: msw never passes a client's cancel on to a body
   *  (mswjs/interceptors#799), so the SDK's standalone GET stream outlived every run. */
  private readonly open = new AbortController();

  constructor(
    readonly name: string,
    private readonly url: string,
    private readonly time: VirtualTime,
    private readonly restartable: (() => Promise<void>) | null,
  ) {}

  cannot(fault: 'session-expire' | 'server-restart'): string | null {
    if (fault === 'session-expire') return 'the server runs in another process: its sessions cannot be reached into';
    return this.restartable ? null : 'the tool did not start this server (--target), so it cannot restart it';
  }

  async handle(request: Request): Promise<Response> {
    const headers: Record<string, string> = {};
    // The proxy re-frames the body it forwards (fetch sets the length); bookkeeping stays here.
    request.headers.forEach((v, k) => {
      if (!k.startsWith('x-faultsim-') && k !== 'transfer-encoding') headers[k] = v;
    });
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
    let res: Response;
    try {
      // GET streams stay open by design; a POST's body is part of the exchange until it ends.
      res = await loopbackFetch(this.time, this.url, { method: request.method, headers, body, signal: this.open.signal }, request.method !== 'GET');
    } catch (e) {
      return new Response(`upstream ${this.url} unreachable: ${e instanceof Error ? e.message : String(e)}`, { status: 502, headers: { 'content-type': 'text/plain' } });
    }
    // A body that is not a stream is read here, whole: msw's bodies cannot be cancelled
    // (mswjs/interceptors#799), so none is left for a client to cancel.
    const sse = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
    const out = res.body && !sse ? await res.arrayBuffer() : res.body;
    return new Response(out, { status: res.status, statusText: res.statusText, headers: res.headers });
  }

  async expire(): Promise<string[]> {
    return [];
  }

  async restart(): Promise<string[]> {
    if (!this.restartable) return [];
    await this.time.real(this.restartable());
    return ['(every session of the restarted process)'];
  }

  async close(): Promise<void> {
    this.open.abort();
  }
}

export async function targetEndpoint(text: string, tools: ToolMap = EVERYTHING_TOOLS): Promise<LoopbackEndpoint> {
  const url = checkLoopbackUrl(text).href;
  if (!(await answers(url))) throw new LoopbackError(`--target ${url} does not answer HTTP (is the server running?)`);
  return { name: `target ${url}`, url, tools, adapter: (time) => new LoopbackAdapter(`target ${url}`, url, time, null), stop: async () => {} };
}

/** A server the tool starts itself, on a free loopback port. */
export class ServedProcess {
  private child: ChildProcess | null = null;
  private stderr = '';

  private constructor(
    readonly command: string,
    readonly port: number,
    readonly url: string,
    private readonly startTimeoutMs: number,
  ) {}

  static async start(command: string, path = '/mcp', startTimeoutMs = 20_000): Promise<ServedProcess> {
    const port = await freePort();
    const p = new ServedProcess(command, port, `http://127.0.0.1:${port}${path.startsWith('/') ? path : `/${path}`}`, startTimeoutMs);
    await p.spawn();
    return p;
  }

  private async spawn(): Promise<void> {
    const cmd = this.command.replaceAll('{port}', String(this.port));
    this.stderr = '';
    const child = spawn('sh', ['-c', cmd], { env: { ...process.env, PORT: String(this.port) }, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    this.child = child;
    // Its own process group, so that it can be ended whole; and ended with this process, however that ends.
    const endWithUs = () => {
      try {
        if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
    };
    process.once('exit', endWithUs);
    child.once('exit', () => process.off('exit', endWithUs));
    child.stderr?.on('data', (d) => (this.stderr = (this.stderr + String(d)).slice(-2000)));
    let exited: number | null = null;
    child.once('exit', (code) => (exited = code ?? -1));
    const deadline = this.startTimeoutMs / 50;
    for (let i = 0; i < deadline; i++) {
      if (exited !== null) throw new LoopbackError(`--serve command exited with status ${exited} before answering on port ${this.port}: ${this.lastLine()}`);
      if (await answers(this.url)) return;
      await realSleep(50);
    }
    await this.stop();
    throw new LoopbackError(`--serve command did not answer at ${this.url} within ${this.startTimeoutMs / 1000} s: ${this.lastLine()}`);
  }

  private lastLine(): string {
    return this.stderr.trim().split('\n').pop() || '(no output on stderr)';
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.spawn();
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.pid === undefined) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // The shell and what it started form one process group: ours, ended by its id.
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const killed = await Promise.race([gone.then(() => true), realSleep(3000).then(() => false)]);
    if (!killed) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
      await gone;
    }
  }

  endpoint(tools: ToolMap = EVERYTHING_TOOLS): LoopbackEndpoint {
    const name = `serve ${this.command}`;
    return { name, url: this.url, tools, adapter: (time) => new LoopbackAdapter(name, this.url, time, () => this.restart()), stop: () => this.stop() };
  }
}

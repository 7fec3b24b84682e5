// A user's own server behind the fault network, in-process: any fetch-style handler
// `(request: Request) => Promise<Response>` — a Hono or itty app's `fetch`, an SDK transport's
// `handleRequest` behind a router. It runs on the run's virtual time, like the in-process SDK server.
// Its sessions cannot be reached into, so `session-expire` is skipped (and reported). Given as
// `{ create }`, every run starts from a fresh handler (no state carried from run to run) and
// `server-restart` replaces it with another; a bare handler is shared by the runs and cannot restart.
import type { LoopbackEndpoint } from './loopback.ts';
import type { ToolMap, ToolSpec } from '../protocol/tool-maps.ts';
import type { ServerAdapter } from '../net/server-adapter.ts';
import { LOCAL_UPSTREAM } from './upstream.ts';

export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** A handler, or a factory of fresh ones (one per run, and one more at each `server-restart`). */
export type HandlerTarget = FetchHandler | { create: () => FetchHandler | Promise<FetchHandler> };

/** A tool of the user's server: its name (called with no arguments), or a name and the arguments of each call. */
export type ToolChoice = string | ToolSpec;

export interface HandlerServerOptions {
  /** How reports name it (default `your handler`). */
  name?: string;
  /** The URL its requests carry (default `http://mcp.faultsim.test/mcp`): the path your router expects. */
  url?: string;
  /** The tool a plain call uses, and the one a call asking for progress uses (default: the plain one). */
  tools: { plain: ToolChoice; progress?: ToolChoice };
}

export const HANDLER_URL = 'http://mcp.faultsim.test/mcp';

function toolSpec(t: ToolChoice): ToolSpec {
  return typeof t === 'string' ? { name: t, args: () => ({}) } : t;
}

export function toolMap(tools: HandlerServerOptions['tools']): ToolMap {
  const plain = toolSpec(tools.plain);
  return { plain, progress: tools.progress === undefined ? plain : toolSpec(tools.progress) };
}

class HandlerAdapter implements ServerAdapter {
  readonly notesItself = false;
  private handler: Promise<FetchHandler>;

  constructor(
    readonly name: string,
    private readonly target: HandlerTarget,
  ) {
    this.handler = typeof target === 'function' ? Promise.resolve(target) : Promise.resolve().then(target.create);
  }

  cannot(fault: 'session-expire' | 'server-restart'): string | null {
    if (fault === 'session-expire') return 'a handler’s sessions cannot be reached into from outside it';
    return typeof this.target === 'function' ? 'give the handler as { create } to let the tool restart it' : null;
  }

  async handle(request: Request): Promise<Response> {
    // The network's bookkeeping headers are its own; the handler sees what a client sent.
    const headers = new Headers();
    request.headers.forEach((v, k) => {
      if (!k.startsWith('x-faultsim-')) headers.set(k, v);
    });
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
    const handler = await this.handler;
    return handler(new Request(request.url, { method: request.method, headers, body }));
  }

  async expire(): Promise<string[]> {
    return [];
  }

  async restart(): Promise<string[]> {
    if (typeof this.target === 'function') return [];
    this.handler = Promise.resolve().then(this.target.create);
    await this.handler;
    return ['(every session of the restarted handler)'];
  }

  async close(): Promise<void> {}
}

/** The handler as an endpoint of the wire tier: each run gets its own adapter (and, from a factory, its own handler). */
export function handlerEndpoint(target: HandlerTarget, options: HandlerServerOptions): LoopbackEndpoint {
  const name = options.name ?? 'your handler';
  return {
    name,
    url: options.url ?? HANDLER_URL,
    tools: toolMap(options.tools),
    upstream: LOCAL_UPSTREAM,
    adapter: () => new HandlerAdapter(name, target),
    stop: async () => {},
  };
}

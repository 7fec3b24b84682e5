// The main thread's side of loopback-worker.mjs: a fetch to a real loopback server, performed in a
// worker thread on the real clock, its body streamed back as a ReadableStream. While a request is
// waiting for its head, and while a POST's body is still arriving, the run's virtual clock holds
// still (a real server answers on the wall clock). The worker keeps the process alive exactly while
// a request is pending (ref'd from the first to the last): unref'd throughout, a CLI whose only
// pending work was a loopback reply ended with exit 13 and no output; ref'd throughout, it kept a
// finished CLI alive. A request ends by its body's end, an error, a cancel, its `signal` (a run's
// server adapter aborts what its run left open: msw never passes a client's cancel on), or
// `closeLoopback()`, which ends the worker itself.
import { Worker } from 'node:worker_threads';
import type { VirtualTime } from '../protocol/virtual-time.ts';

interface Pending {
  /** `METHOD url`, for a report of what was still open. */
  what: string;
  time: VirtualTime | null;
  head: (r: Response) => void;
  fail: (e: Error) => void;
  controller?: ReadableStreamDefaultController<Uint8Array>;
  done: () => void;
  unlisten: () => void;
}

interface WorkerMessage {
  id: number;
  type: 'head' | 'chunk' | 'end' | 'error';
  status?: number;
  statusText?: string;
  headers?: [string, string][];
  hasBody?: boolean;
  chunk?: Uint8Array;
  message?: string;
}

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, Pending>();

/** Ref the worker while anything is pending, unref it when nothing is. */
function track(id: number, p: Pending | null): void {
  const before = pending.size;
  if (p) pending.set(id, p);
  else pending.delete(id);
  if (!worker) return;
  if (before === 0 && pending.size > 0) worker.ref();
  else if (before > 0 && pending.size === 0) worker.unref();
}

/** End request `id` here: its body closes (or errors with `error`), and it no longer keeps anything alive. */
function finish(id: number, error?: string): void {
  const p = pending.get(id);
  if (!p) return;
  track(id, null);
  p.unlisten();
  try {
    if (error !== undefined) p.controller?.error(new Error(error));
    else p.controller?.close();
  } catch {
    /* cancelled or closed already */
  }
  if (error !== undefined) p.fail(new Error(error));
  p.done();
}

function abort(id: number, why: string): void {
  if (!pending.has(id)) return;
  worker?.postMessage({ type: 'abort', id });
  finish(id, why);
}

function onMessage(m: WorkerMessage): void {
  const p = pending.get(m.id);
  if (!p) return;
  if (p.time) p.time.activity++;
  if (m.type === 'head') {
    const body = m.hasBody
      ? new ReadableStream<Uint8Array>({ start: (c) => void (p.controller = c), cancel: () => abort(m.id, 'cancelled') })
      : null;
    p.head(new Response(body, { status: m.status, statusText: m.statusText, headers: m.headers }));
  } else if (m.type === 'chunk') p.controller?.enqueue(m.chunk!);
  else finish(m.id, m.type === 'error' ? m.message : undefined);
}

function getWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('./loopback-worker.mjs', import.meta.url), { execArgv: [] });
  w.on('message', onMessage);
  w.on('error', (e) => failAll(`loopback worker failed: ${e.message}`));
  // After the listener: attaching a 'message' listener refs the worker's port again; `track` refs it
  // while a request is pending.
  w.unref();
  worker = w;
  return w;
}

function failAll(message: string): void {
  for (const id of [...pending.keys()]) finish(id, message);
}

/** Requests still open (a stream nobody cancelled): what would keep the process alive. */
export function openLoopbackRequests(): string[] {
  return [...pending.values()].map((p) => p.what);
}

/** End the worker: every open request fails, and nothing of it keeps the process alive. Idempotent;
 *  a later loopbackFetch starts a new worker. */
export async function closeLoopback(): Promise<void> {
  failAll('loopback closed');
  const w = worker;
  worker = null;
  if (w) await w.terminate();
}

export interface LoopbackInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Real milliseconds until the worker gives up (the readiness probe); 0: never. */
  timeoutMs?: number;
  /** Aborts the request and its body, wherever it is. */
  signal?: AbortSignal;
  /** PEM text of the CA that verifies an https:// server (`--ca`); absent: the system's CAs. */
  ca?: string;
  /** The user allowed a host off loopback (`--allow-remote`); without it the worker refuses one. */
  remote?: boolean;
  /** Send the body with Transfer-Encoding: chunked (as the client framed it); otherwise with a Content-Length. */
  chunked?: boolean;
}

/** Fetch `url` on the real clock. `holdsClock`: the body is part of the exchange (a POST's answer).
 *  Without a run (`time` null) it is a plain real fetch: the readiness probe of a served process. */
export function loopbackFetch(time: VirtualTime | null, url: string, init: LoopbackInit, holdsClock: boolean): Promise<Response> {
  if (init.signal?.aborted) return Promise.reject(new Error('aborted'));
  const id = nextId++;
  time?.realOpened();
  let open = true;
  const release = () => {
    if (open) (open = false), time?.realClosed();
  };
  return new Promise<Response>((resolve, reject) => {
    const w = getWorker();
    const onAbort = () => abort(id, 'aborted');
    init.signal?.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    track(id, {
      what: `${init.method} ${url}`,
      time,
      head: (r) => {
        settled = true;
        if (!holdsClock || r.body === null) release();
        resolve(r);
      },
      // After the head, an error belongs to the body (its controller), not to the promise.
      fail: (e) => {
        release();
        if (!settled) reject(e);
      },
      done: release,
      unlisten: () => init.signal?.removeEventListener('abort', onAbort),
    });
    const { method, headers, ca, remote, chunked } = init;
    w.postMessage({ id, url, method, headers, body: init.body ?? null, timeoutMs: init.timeoutMs ?? 0, ca, remote, chunked });
  });
}

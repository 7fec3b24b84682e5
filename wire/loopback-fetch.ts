// The main thread's side of loopback-worker.mjs: a fetch to a real loopback server, performed in a
// worker thread on the real clock, its body streamed back as a ReadableStream. While a request is
// waiting for its head, and while a POST's body is still arriving, the run's virtual clock holds
// still (a real server answers on the wall clock). The worker is unref'd: it never keeps a process alive.
import { Worker } from 'node:worker_threads';
import type { VirtualTime } from './virtual-time.ts';

interface Pending {
  time: VirtualTime | null;
  head: (r: Response) => void;
  fail: (e: Error) => void;
  controller?: ReadableStreamDefaultController<Uint8Array>;
  done: () => void;
}

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, Pending>();

function getWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('./loopback-worker.mjs', import.meta.url), { execArgv: [] });
  w.on('message', (m: { id: number; type: string; status?: number; statusText?: string; headers?: [string, string][]; hasBody?: boolean; chunk?: Uint8Array; message?: string }) => {
    const p = pending.get(m.id);
    if (!p) return;
    if (p.time) p.time.activity++;
    if (m.type === 'head') {
      const body = m.hasBody
        ? new ReadableStream<Uint8Array>({
            start: (c) => void (p.controller = c),
            cancel: () => {
              w.postMessage({ type: 'abort', id: m.id });
              pending.delete(m.id);
              p.done();
            },
          })
        : null;
      p.head(new Response(body, { status: m.status, statusText: m.statusText, headers: m.headers }));
    } else if (m.type === 'chunk') p.controller?.enqueue(m.chunk!);
    else {
      pending.delete(m.id);
      if (m.type === 'error') {
        p.fail(new Error(m.message));
        try {
          p.controller?.error(new Error(m.message));
        } catch {
          /* already closed */
        }
      } else {
        try {
          p.controller?.close();
        } catch {
          /* cancelled */
        }
      }
      p.done();
    }
  });
  // After the listener: attaching a 'message' listener refs the worker's port again, and a
  // ref'd port kept the CLI alive after `check --wire --serve` had printed its report.
  w.unref();
  worker = w;
  return w;
}

/** Fetch `url` on the real clock. `holdsClock`: the body is part of the exchange (a POST's answer).
 *  Without a run (`time` null) it is a plain real fetch: the readiness probe of a served process. */
export function loopbackFetch(
  time: VirtualTime | null,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; timeoutMs?: number },
  holdsClock: boolean,
): Promise<Response> {
  const id = nextId++;
  time?.realOpened();
  let open = true;
  const release = () => {
    if (open) (open = false), time?.realClosed();
  };
  return new Promise<Response>((resolve, reject) => {
    pending.set(id, {
      time,
      head: (r) => {
        if (!holdsClock || r.body === null) release();
        resolve(r);
      },
      fail: (e) => {
        release();
        reject(e);
      },
      done: release,
    });
    getWorker().postMessage({ id, url, method: init.method, headers: init.headers, body: init.body ?? null, timeoutMs: init.timeoutMs ?? 0 });
  });
}

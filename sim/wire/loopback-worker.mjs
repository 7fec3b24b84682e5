// The loopback exchange, off the main thread. A wire run fakes the main thread's timers (so the
// SDK's deadlines run on virtual time), and Node's fetch keeps its socket timers on those same
// globals; a real server's sockets must live on the real clock. This worker has its own globals:
// it performs each request with the real fetch (msw is not installed here) and streams the answer
// back. Plain JavaScript, so that it loads the same under tsx, vitest and plain node.
// Every request stays on loopback: a URL off it is refused here too (not only by the CLI's check),
// and redirects are never followed (`redirect: 'manual'`): a 3xx goes back to the client as it is.
import { parentPort } from 'node:worker_threads';

const aborts = new Map();
const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])$/;

function onLoopback(text) {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' && LOOPBACK.test(url.hostname);
  } catch {
    return false;
  }
}

parentPort.on('message', async (m) => {
  if (m.type === 'abort') {
    aborts.get(m.id)?.abort();
    return;
  }
  const abort = new AbortController();
  aborts.set(m.id, abort);
  try {
    if (!onLoopback(m.url)) throw new Error(`refused: ${m.url} is not an http:// URL on loopback`);
    const signal = m.timeoutMs ? AbortSignal.any([abort.signal, AbortSignal.timeout(m.timeoutMs)]) : abort.signal;
    const res = await fetch(m.url, { method: m.method, headers: m.headers, body: m.body ?? undefined, signal, redirect: 'manual' });
    const headers = [];
    res.headers.forEach((v, k) => headers.push([k, v]));
    parentPort.postMessage({ id: m.id, type: 'head', status: res.status, statusText: res.statusText, headers, hasBody: res.body !== null });
    if (res.body) {
      const reader = res.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parentPort.postMessage({ id: m.id, type: 'chunk', chunk: value });
      }
    }
    parentPort.postMessage({ id: m.id, type: 'end' });
  } catch (e) {
    parentPort.postMessage({
      id: m.id,
      type: 'error',
      message: e instanceof Error ? `${e.message}${e.cause ? ` (${e.cause.message ?? e.cause})` : ''}` : String(e),
    });
  } finally {
    aborts.delete(m.id);
  }
});

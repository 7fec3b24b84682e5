// The loopback exchange, off the main thread. A wire run fakes the main thread's timers (so the
// SDK's deadlines run on virtual time), and Node's fetch keeps its socket timers on those same
// globals; a real server's sockets must live on the real clock. This worker has its own globals:
// it performs each request with the real fetch (msw is not installed here) and streams the answer
// back. Plain JavaScript, so that it loads the same under tsx, vitest and plain node.
// Every request stays on loopback: a URL off it is refused here too (not only by the CLI's check),
// unless the message says the user allowed it (`remote`, from `--allow-remote`); redirects are never
// followed: a 3xx goes back to the client as it is. An https:// URL goes through node:https, whose
// `ca` option takes a private CA (`--ca`); Node's fetch has no such option without undici's Agent.
// A body is framed as the client framed it (`chunked`: Transfer-Encoding: chunked; otherwise a
// Content-Length), so that a fault on the framing changes what the server receives.
import { request as httpsRequest } from 'node:https';
import { parentPort } from 'node:worker_threads';

const aborts = new Map();
const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])$/;

function allowed(text, remote) {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && (remote || LOOPBACK.test(url.hostname));
  } catch {
    return false;
  }
}

/** An https exchange as fetch would give it: the head, then the body's chunks (TLS verified; `ca` replaces the default CAs). */
function fetchHttps(url, m, signal) {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method: m.method, headers: m.headers, ca: m.ca ?? undefined, signal }, (res) => {
      const headers = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
      const body = m.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304 ? null : res;
      resolve({ status: res.statusCode, statusText: res.statusMessage ?? '', headers, body });
    });
    req.once('error', reject);
    // write() then end(): node:http frames the body chunked; end(body) alone sets a Content-Length.
    if (m.chunked && m.body) req.write(m.body);
    req.end(m.chunked ? undefined : (m.body ?? undefined));
  });
}

async function exchange(m, signal) {
  if (m.url.startsWith('https:')) return fetchHttps(m.url, m, signal);
  // A stream body (duplex: half) goes out chunked; a string body with its Content-Length.
  const body = m.body && m.chunked ? new Blob([m.body]).stream() : (m.body ?? undefined);
  const duplex = m.body && m.chunked ? { duplex: 'half' } : {};
  const res = await fetch(m.url, { method: m.method, headers: m.headers, body, signal, redirect: 'manual', ...duplex });
  const headers = [...res.headers];
  return { status: res.status, statusText: res.statusText, headers, body: res.body };
}

parentPort.on('message', async (m) => {
  if (m.type === 'abort') {
    aborts.get(m.id)?.abort();
    return;
  }
  const abort = new AbortController();
  aborts.set(m.id, abort);
  try {
    if (!allowed(m.url, m.remote === true)) throw new Error(`refused: ${m.url} is not an http(s):// URL on loopback`);
    const signal = m.timeoutMs ? AbortSignal.any([abort.signal, AbortSignal.timeout(m.timeoutMs)]) : abort.signal;
    const res = await exchange(m, signal);
    const { status, statusText, headers } = res;
    parentPort.postMessage({ id: m.id, type: 'head', status, statusText, headers, hasBody: res.body !== null });
    // A web stream (fetch) and a Node stream (https) are both async-iterable.
    if (res.body) for await (const chunk of res.body) parentPort.postMessage({ id: m.id, type: 'chunk', chunk });
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

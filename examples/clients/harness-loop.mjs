// The JSON-lines side of a client harness (examples/clients/README.md), shared by the harnesses
// that wrap a client library: each one supplies only how its library opens a connection, calls a
// tool, lists tools, closes, and what its errors mean. This file reads the tool's lines on stdin,
// answers on stdout, and keeps the order rules: a `connect` is handled before the next line;
// `call`/`list` run concurrently; `close` (or stdin's end) closes the client and exits 0.
//
//   serveHarness({
//     revisions: ['2025-11-25', …],          // what `connect`'s `revision` may name besides "default"
//     open(url, revision, timeoutMs) → { revision, call(op), list(op), close() },  // revision: "default" or one listed;
//                                                 // timeoutMs undefined: set no timeout (the library's default)
//     classify(error) → { message, kind },   // kind: timeout | session | connect | other
//   })
// `call(op)` resolves to the result's content array, `list(op)` to the tool names.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createInterface } from 'node:readline';

const emit = (m) => process.stdout.write(`${JSON.stringify(m)}\n`);

/** Every error a library throws has a name and a message; a few throw strings or plain objects. */
export function describeError(e) {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  if (typeof e === 'string') return e;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

/** The causes of an error, outermost first (wrappers keep the library's error as `cause`). */
export function causes(e) {
  const chain = [];
  for (let x = e; x && chain.length < 8; x = x.cause) chain.push(x);
  return chain;
}

/** The `meta` of the workload call whose library call is running (AsyncLocalStorage follows its promises and timers). */
const currentCall = new AsyncLocalStorage();

/**
 * For a library whose tool call takes no `_meta` from its caller: a `fetch` (given to the library
 * through its own `fetch` option) that adds the running call's `meta` to the `_meta` of the
 * tools/call and tools/list bodies it posts. Bookkeeping only — it names the workload call so the
 * fault network can tie the request to it (README: "`meta` must be sent as the request's `_meta`");
 * every other byte is the library's.
 */
export function taggingFetch(inner = globalThis.fetch) {
  return (input, init) => {
    const meta = currentCall.getStore();
    if (!meta || typeof init?.body !== 'string') return inner(input, init);
    return inner(input, { ...init, body: tagBody(init.body, meta) });
  };
}

function tagBody(text, meta) {
  let m;
  try {
    m = JSON.parse(text);
  } catch {
    return text;
  }
  if (m?.method !== 'tools/call' && m?.method !== 'tools/list') return text;
  m.params = { ...m.params, _meta: { ...meta, ...m.params?._meta } };
  return JSON.stringify(m);
}

export function serveHarness(adapter) {
  let session = null;
  // The request timeout the agent sets through the library's option; undefined: none, the library
  // runs with its own default (the tool sends `timeoutMs: null` for a library judged alone).
  let timeoutMs = 5000;

  async function connect(op) {
    const old = session;
    session = null;
    // Not awaited: a library whose close waits on a stream the fault network holds would block the next connect.
    void Promise.resolve()
      .then(() => old?.close())
      .catch(() => {});
    timeoutMs = op.timeoutMs === null ? undefined : (op.timeoutMs ?? 5000);
    const revision = op.revision ?? 'default';
    if (revision !== 'default' && !adapter.revisions.includes(revision)) {
      const message = `this client speaks ${adapter.revisions.join(', ')}, not ${revision}`;
      return emit({ event: 'connect-failed', error: { message, kind: 'unsupported-revision' } });
    }
    try {
      session = await adapter.open(op.url, revision, timeoutMs);
      emit({ event: 'connected', revision: session.revision });
    } catch (e) {
      emit({ event: 'connect-failed', error: { ...adapter.classify(e), kind: 'connect' } });
    }
  }

  async function call(op) {
    const s = session;
    if (!s) return emit({ id: op.id, error: { message: 'not connected', kind: 'connect' } });
    try {
      if (op.op === 'list') {
        const names = await currentCall.run(op.meta ?? {}, () => s.list(op, timeoutMs));
        return emit({ id: op.id, result: { content: [{ type: 'text', text: names.join(',') }] } });
      }
      emit({ id: op.id, result: { content: (await currentCall.run(op.meta ?? {}, () => s.call(op, timeoutMs))) ?? [] } });
    } catch (e) {
      emit({ id: op.id, error: adapter.classify(e) });
    }
  }

  let queue = Promise.resolve();
  const lines = createInterface({ input: process.stdin });
  const close = async () => {
    await Promise.race([Promise.resolve().then(() => session?.close()), new Promise((r) => setTimeout(r, 1000))]).catch(() => {});
    process.exit(0);
  };
  lines.on('line', (line) => {
    let op;
    try {
      op = JSON.parse(line);
    } catch {
      return;
    }
    if (op?.op === 'connect') queue = queue.then(() => connect(op));
    else if (op?.op === 'call' || op?.op === 'list') queue = queue.then(() => void call(op));
    else if (op?.op === 'close') queue = queue.then(close);
  });
  lines.on('close', () => (queue = queue.then(close)));
}

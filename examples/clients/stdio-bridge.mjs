// The desktop agent's side of a stdio-to-HTTP bridge (mcp-remote, supergateway): start the bridge as
// a child process with the server's URL, and speak MCP to its stdin/stdout as an agent's stdio client
// does — newline-delimited JSON-RPC, `initialize` + `notifications/initialized`, then requests. Each
// request ends with the bridge's answer, or at the agent's own timeout (a bridge has no per-request
// timeout of its own to lean on); if the bridge exits, every open request fails with why.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** An error with the harness protocol's kind already decided. */
export class HarnessError extends Error {
  constructor(message, kind) {
    super(message);
    this.kind = kind;
  }
}

/** The harness protocol's error from what a bridge answered or did. */
export function classifyBridgeError(e) {
  if (e instanceof HarnessError) return { message: e.message, kind: e.kind };
  const message = e?.message ?? String(e);
  return { message, kind: /HTTP 404|Session not found/i.test(message) ? 'session' : 'other' };
}

/** Start `argv` (run with this Node) and talk to it. `onStderr` sees each line the bridge logs. */
export function startBridge(argv, { env = process.env, onStderr = () => {} } = {}) {
  const child = spawn(process.execPath, argv, { stdio: ['pipe', 'pipe', 'pipe'], env });
  const pending = new Map();
  let nextId = 1;
  let gone = null;
  const fail = (why) => {
    gone ??= why;
    for (const settle of pending.values()) settle({ error: { message: gone } });
    pending.clear();
  };
  child.on('exit', (code, signal) => fail(`the bridge exited (${signal ?? `status ${code}`})`));
  child.on('error', (e) => fail(`the bridge could not start: ${e.message}`));
  child.stdin.on('error', () => {});
  createInterface({ input: child.stdout }).on('line', (line) => {
    let m;
    try {
      m = JSON.parse(line);
    } catch {
      return;
    }
    const settle = pending.get(m?.id);
    if (settle && (m.result !== undefined || m.error !== undefined)) {
      pending.delete(m.id);
      settle(m);
    }
  });
  createInterface({ input: child.stderr }).on('line', (line) => {
    onStderr(line);
    process.stderr.write(`[bridge] ${line}\n`);
  });
  const send = (m) => {
    if (!gone) child.stdin.write(`${JSON.stringify(m)}\n`);
  };

  function request(method, params, timeout) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      if (gone) return reject(new HarnessError(gone, 'other'));
      // The agent's own timer, where the agent sets one; undefined: none (the bridge's own behaviour alone).
      const timer =
        timeout === undefined
          ? undefined
          : setTimeout(() => {
              pending.delete(id);
              send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'timeout' } });
              reject(new HarnessError(`no answer from the bridge within ${timeout} ms`, 'timeout'));
            }, timeout);
      pending.set(id, (m) => {
        clearTimeout(timer);
        if (!m.error) return resolve(m.result);
        const message = `JSON-RPC ${m.error.code ?? '(none)'}: ${m.error.message}`;
        reject(new HarnessError(message, classifyBridgeError({ message }).kind));
      });
      send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** The agent's handshake; the bridge connects to the server before it answers, so that counts too. */
  async function initialize(timeout) {
    const clientInfo = { name: 'mcp-faultsim bridge harness', version: '0.1.0' };
    const r = await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo }, timeout);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return r;
  }

  return {
    initialize,
    /** The session's harness calls: tools/call with the call's `_meta`, tools/list. */
    session(revision) {
      return {
        revision,
        async call(op, t) {
          const _meta = { ...op.meta, ...(op.progress ? { progressToken: `p-${op.id}` } : {}) };
          return (await request('tools/call', { name: op.tool, arguments: op.arguments ?? {}, _meta }, t)).content;
        },
        async list(op, t) {
          return (await request('tools/list', { _meta: op.meta }, t)).tools.map((x) => x.name);
        },
        close: () => {
          child.stdin.end();
          child.kill('SIGTERM');
        },
      };
    },
    close() {
      child.stdin.end();
      child.kill('SIGTERM');
    },
  };
}

/** The path of a package's bin script, to run with this Node. */
export function binOf(require, pkg, name) {
  const manifest = require(`${pkg}/package.json`);
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[name];
  return require.resolve(`${pkg}/${bin.replace(/^\.\//, '')}`);
}

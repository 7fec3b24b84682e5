// mcp-faultsim client harness for mcp-remote, the stdio-to-HTTP bridge desktop agents run in front of
// a remote server (`npx mcp-remote URL`). The harness plays the desktop agent: it starts mcp-remote
// (its `mcp-remote` bin, on this Node) with the fault proxy's URL and speaks MCP to its stdin/stdout,
// newline-delimited JSON-RPC as an agent's stdio client does: `initialize` + `notifications/initialized`
// on `connect`, `tools/call` (with the call's `_meta`) per `call`. mcp-remote bundles the official SDK
// v2 at 2.0.0 (@modelcontextprotocol/client + core, built into its dist) and adds its own recovery:
// on a 404 it re-initializes the remote session itself and re-sends the request; its errors come
// back as JSON-RPC errors with code -32001 and a message starting "mcp-remote: ".
// The revision is the remote side's: its default `--protocol legacy` speaks 2025-11-25; asked for
// 2026-07-28 the harness passes `--protocol auto` (server/discover first, initialize if the server
// is a legacy one; mcp-remote has no pin) and reports what mcp-remote logged it negotiated. The
// local stdio side is always the 2025 handshake: mcp-remote answers it itself on a modern server.
// The desktop agent's own request timeout is the tool's `timeoutMs` (mcp-remote has none per call).
// MCP_REMOTE_CONFIG_DIR points at a fresh temporary folder: no stored tokens from this machine.
//   node examples/clients/mcp-remote-client.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { serveHarness } from './harness-loop.mjs';

const require = createRequire(import.meta.url);
const BIN = join(dirname(require.resolve('mcp-remote/package.json')), require('mcp-remote/package.json').bin['mcp-remote']);
const configDir = mkdtempSync(join(tmpdir(), 'mcp-remote-harness-'));
process.on('exit', () => rmSync(configDir, { recursive: true, force: true }));

class HarnessError extends Error {
  constructor(message, kind) {
    super(message);
    this.kind = kind;
  }
}

function classify(e) {
  if (e instanceof HarnessError) return { message: e.message, kind: e.kind };
  const message = e?.message ?? String(e);
  return { message, kind: /HTTP 404|Session not found/i.test(message) ? 'session' : 'other' };
}

/** One mcp-remote process and the JSON-RPC conversation with its stdio side. */
function startBridge(url, revision) {
  const args = [BIN, url, ...(revision === '2026-07-28' ? ['--protocol', 'auto'] : [])];
  const child = spawn(process.execPath, args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, MCP_REMOTE_CONFIG_DIR: configDir },
  });
  const pending = new Map();
  let nextId = 1;
  let spoke = '2025-11-25';
  let gone = null;
  const fail = (why) => {
    gone ??= why;
    for (const settle of pending.values()) settle({ error: { message: gone, code: null } });
    pending.clear();
  };
  child.on('exit', (code, signal) => fail(`mcp-remote exited (${signal ?? `status ${code}`})`));
  child.on('error', (e) => fail(`mcp-remote could not start: ${e.message}`));
  child.stdin.on('error', () => {});
  createInterface({ input: child.stdout }).on('line', (line) => {
    let m;
    try {
      m = JSON.parse(line);
    } catch {
      return;
    }
    const settle = pending.get(m.id);
    if (settle && (m.result !== undefined || m.error !== undefined)) {
      pending.delete(m.id);
      settle(m);
    }
  });
  createInterface({ input: child.stderr }).on('line', (line) => {
    const modern = /Remote server speaks MCP (\S+);/.exec(line);
    if (modern) spoke = modern[1];
    process.stderr.write(`[mcp-remote] ${line}\n`);
  });
  const send = (m) => !gone && child.stdin.write(`${JSON.stringify(m)}\n`);

  /** A request; its answer, or an error at the agent's own timeout. */
  function request(method, params, timeout) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      if (gone) return reject(new HarnessError(gone, 'other'));
      const timer = setTimeout(() => {
        pending.delete(id);
        send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'timeout' } });
        reject(new HarnessError(`no answer from mcp-remote within ${timeout} ms`, 'timeout'));
      }, timeout);
      pending.set(id, (m) => {
        clearTimeout(timer);
        if (m.error) reject(new HarnessError(`JSON-RPC ${m.error.code ?? ''}: ${m.error.message}`, classify(m.error).kind));
        else resolve(m.result);
      });
      send({ jsonrpc: '2.0', id, method, params });
    });
  }

  return {
    request,
    send,
    spoke: () => spoke,
    close() {
      child.stdin.end();
      child.kill('SIGTERM');
    },
  };
}

serveHarness({
  revisions: ['2025-11-25', '2026-07-28'],
  classify,
  async open(url, revision, timeout) {
    const bridge = startBridge(url, revision);
    try {
      const info = { name: 'mcp-faultsim mcp-remote harness', version: '0.1.0' };
      // mcp-remote connects to the remote server before it reads its stdin: its start-up counts too.
      await bridge.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: info }, timeout + 10_000);
      bridge.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    } catch (e) {
      bridge.close();
      throw e;
    }
    return {
      revision: bridge.spoke(),
      async call(op, t) {
        const _meta = { ...op.meta, ...(op.progress ? { progressToken: `p-${op.id}` } : {}) };
        const r = await bridge.request('tools/call', { name: op.tool, arguments: op.arguments ?? {}, _meta }, t);
        return r.content;
      },
      async list(op, t) {
        const r = await bridge.request('tools/list', { _meta: op.meta }, t);
        return r.tools.map((x) => x.name);
      },
      close: () => bridge.close(),
    };
  },
});

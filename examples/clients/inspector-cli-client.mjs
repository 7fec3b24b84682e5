// mcp-faultsim client harness for the MCP Inspector's CLI (@modelcontextprotocol/inspector --cli),
// the official debugging client people script against a server. It is one-shot: each invocation
// connects (initialize, or server/discover), runs one method, prints its result as JSON and exits;
// so here `connect` runs `--method tools/list` (the check a user makes first) and each `call` is its
// own invocation, its own connection — a session never outlives a call. It wraps the official SDK v2
// at exactly @modelcontextprotocol/client 2.3.1 (its dependency). Node 24: its engines say node >= 22.19.
// The revision is its `--protocol-era`: legacy (its default for a URL) for 2025-11-25, modern for
// 2026-07-28. The call's `_meta` goes in `--tool-metadata` (values parsed as JSON). It has no request
// timeout flag (only --connect-timeout, 15 s); its requests go through SDK v2 2.3.1 with no timeout
// set, so the SDK's 60 s default applies. When the agent sets a timeout the harness ends an
// invocation after the tool's `timeoutMs` plus STARTUP_MS for the CLI to start: kind timeout.
// MCP_CATALOG_PATH points at a fresh temporary file: no catalog of this machine is read or written.
//   .ci/node24/node_modules/.bin/node examples/clients/inspector-cli-client.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveHarness } from './harness-loop.mjs';
import { binOf, HarnessError } from './stdio-bridge.mjs';

const BIN = binOf(createRequire(import.meta.url), '@modelcontextprotocol/inspector', 'mcp-inspector');
/** Real ms the CLI may take to start before its `timeoutMs` counts (0.6 s of CPU; 4–6 s of wall time at a
 *  load average of 35 here). Kept small: a held call plus the agent's retry must end inside the audit's
 *  30 s run, or the run ends it `never` for the CLI's start-up alone. */
const STARTUP_MS = 5_000;
const ERA = { '2025-11-25': 'legacy', '2026-07-28': 'modern' };
const home = mkdtempSync(join(tmpdir(), 'inspector-harness-'));
process.on('exit', () => rmSync(home, { recursive: true, force: true }));

/** One invocation of the CLI: its parsed stdout, or an error with its last stderr line. */
function inspect(args, timeout) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, MCP_CATALOG_PATH: join(home, 'mcp.json') };
    const child = spawn(process.execPath, [BIN, '--cli', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    // The agent's kill timer, where the agent sets a timeout; undefined: none (the CLI's own timers alone).
    const timer =
      timeout === undefined
        ? undefined
        : setTimeout(() => {
            child.kill('SIGKILL');
            reject(new HarnessError(`the inspector CLI had not answered after ${timeout} ms (+${STARTUP_MS} ms to start)`, 'timeout'));
          }, timeout + STARTUP_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) {
        try {
          return resolve(JSON.parse(out));
        } catch {
          return reject(new HarnessError(`the inspector CLI printed no JSON: ${out.slice(0, 200)}`, 'other'));
        }
      }
      const last = err.trim().split('\n').at(-1) ?? '';
      const kind = /\b404\b|Session not found/i.test(err) ? 'session' : 'other';
      reject(new HarnessError(`inspector CLI exit ${signal ?? code}: ${last}`, kind));
    });
  });
}

serveHarness({
  revisions: Object.keys(ERA),
  classify: (e) => (e instanceof HarnessError ? { message: e.message, kind: e.kind } : { message: String(e), kind: 'other' }),
  async open(url, revision, timeout) {
    const target = [url, '--transport', 'http', ...(revision === 'default' ? [] : ['--protocol-era', ERA[revision]])];
    await inspect([...target, '--method', 'tools/list'], timeout);
    return {
      revision: revision === '2026-07-28' ? '2026-07-28' : '2025-11-25',
      async call(op, t) {
        const args = Object.entries(op.arguments ?? {}).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
        const meta = Object.entries(op.meta ?? {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
        const r = await inspect(
          [
            ...target,
            '--method',
            'tools/call',
            '--tool-name',
            op.tool,
            ...(args.length ? ['--tool-arg', ...args] : []),
            ...(meta.length ? ['--tool-metadata', ...meta] : []),
          ],
          t,
        );
        if (r.isError) throw new HarnessError(`tool error: ${JSON.stringify(r.content)}`, 'other');
        return r.content;
      },
      async list(_op, t) {
        return (await inspect([...target, '--method', 'tools/list'], t)).tools.map((x) => x.name);
      },
      close() {},
    };
  },
});

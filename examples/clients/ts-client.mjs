// mcp-faultsim client harness for the official TypeScript client (@modelcontextprotocol/sdk v1:
// Client + StreamableHTTPClientTransport), run as its own Node process. It speaks the JSON-lines
// protocol of examples/clients/README.md on stdin/stdout: `connect` opens a session (a second one
// replaces it), `call`/`list` run concurrently, `close` ends. SDK v1 speaks the 2025 revisions only
// (its LATEST_PROTOCOL_VERSION is 2025-11-25): a `connect` asking for 2026-07-28 is refused
// (`unsupported-revision`); the revision it spoke is the one its initialize negotiated.
//   node examples/clients/ts-client.mjs
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

const emit = (m) => process.stdout.write(`${JSON.stringify(m)}\n`);

function classify(e) {
  if (e instanceof StreamableHTTPError) return { message: `HTTP ${e.code}: ${e.message}`, kind: e.code === 404 ? 'session' : 'other' };
  if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) return { message: e.message, kind: 'timeout' };
  return { message: e instanceof Error ? `${e.name}: ${e.message}` : String(e), kind: 'other' };
}

let client = null;
/** The agent's request timeout; undefined: none passed, the SDK's own default (60 s). */
let timeout = 5000;
const timeoutOption = () => (timeout === undefined ? {} : { timeout });

async function connect(url, timeoutMs, revision = 'default') {
  const old = client;
  client = null;
  void old?.close().catch(() => {});
  timeout = timeoutMs === null ? undefined : (timeoutMs ?? 5000);
  if (revision !== 'default' && revision !== '2025-11-25') {
    const message = `SDK v1 speaks 2025-11-25 (and older), not ${revision}`;
    return emit({ event: 'connect-failed', error: { message, kind: 'unsupported-revision' } });
  }
  const c = new Client({ name: 'mcp-faultsim ts-client harness', version: '0.1.0' });
  c.onerror = () => {};
  try {
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await c.connect(transport, timeoutOption());
    client = c;
    emit({ event: 'connected', revision: transport.protocolVersion });
  } catch (e) {
    void c.close().catch(() => {});
    emit({ event: 'connect-failed', error: { ...classify(e), kind: 'connect' } });
  }
}

async function call(op) {
  const c = client;
  if (!c) return emit({ id: op.id, error: { message: 'not connected', kind: 'connect' } });
  try {
    if (op.op === 'list') {
      const r = await c.listTools({ _meta: op.meta }, timeoutOption());
      return emit({ id: op.id, result: { content: [{ type: 'text', text: r.tools.map((t) => t.name).join(',') }] } });
    }
    const options = { ...timeoutOption(), ...(op.progress ? { onprogress: () => {} } : {}) };
    const r = await c.callTool({ name: op.tool, arguments: op.arguments ?? {}, _meta: op.meta }, undefined, options);
    emit({ id: op.id, result: { content: r.content ?? [] } });
  } catch (e) {
    emit({ id: op.id, error: classify(e) });
  }
}

// Ops are handled in order; a connect is awaited before the next op is read.
let queue = Promise.resolve();
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  let op;
  try {
    op = JSON.parse(line);
  } catch {
    return;
  }
  if (op.op === 'connect') queue = queue.then(() => connect(op.url, op.timeoutMs, op.revision));
  else if (op.op === 'call' || op.op === 'list') queue = queue.then(() => void call(op));
  else if (op.op === 'close')
    queue = queue.then(async () => {
      await Promise.race([client?.close(), new Promise((r) => setTimeout(r, 1000))]).catch(() => {});
      process.exit(0);
    });
});
lines.on('close', () => queue.then(() => process.exit(0)));

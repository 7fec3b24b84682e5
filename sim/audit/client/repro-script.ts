// Why one file: the standalone reproduction script is one text (it must run with nothing of
// mcp-faultsim), kept here whole so it reads as what a user receives.
// The script `--repro` writes beside a copy of the client's harness: it serves the official SDK v2
// server (@modelcontextprotocol/server) on loopback in the row's revision, puts a small fault proxy
// (node:http) in front of it that does the scenario's one fault, runs the harness (the client
// library alone: one `connect`, then the calls one after the other, no retry, no reconnect), and
// prints every request, the fault, and how each call ended, with milliseconds. `__CONFIG__` is
// replaced by the row's JSON.
export const REPRO_SCRIPT = `// Standalone reproduction written by \`mcp-faultsim audit --clients … --repro\`: it needs only the
// packages of package.json (\`npm i\`), then \`node repro.mjs\`. What it does:
//   1. serves the official MCP SDK v2 server (@modelcontextprotocol/server) on 127.0.0.1 in CONFIG.revision,
//      one tool \`work\` that returns text;
//   2. puts a fault proxy (node:http) in front of it that does CONFIG.faults once;
//   3. runs the client library through harness.mjs (JSON lines on stdin/stdout: connect, call, close),
//      with a request timeout of CONFIG.timeoutMs: one connect, then CONFIG.calls calls in sequence,
//      no retry and no reconnect, so what happens is what the library does on its own;
//   4. prints each request the proxy saw, the fault, and how each call ended, then a summary.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { createMcpHandler, isInitializeRequest, McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

const CONFIG = __CONFIG__;
const t0 = performance.now();
const ms = () => Math.round(performance.now() - t0);
const log = (line) => console.log(\`[\${String(ms()).padStart(6)} ms] \${line}\`);

function toolServer() {
  const s = new McpServer({ name: 'repro server', version: '0.0.0' });
  s.registerTool('work', { description: 'returns text' }, async () => ({ content: [{ type: 'text', text: 'work result' }] }));
  return s;
}

// The server: sessions (2025-11-25) as the SDK's examples keep them, or the sessionless handler (2026-07-28).
const sessions = new Map();
const modern = CONFIG.revision === '2026-07-28' ? createMcpHandler(() => toolServer(), { legacy: 'reject', responseMode: 'sse' }) : null;
async function serve(request) {
  if (modern) return modern.fetch(request);
  const sid = request.headers.get('mcp-session-id');
  if (sid !== null) {
    const live = sessions.get(sid);
    if (live) return live.transport.handleRequest(request);
    return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }, { status: 404 });
  }
  const body = request.method === 'POST' ? await request.clone().json().catch(() => undefined) : undefined;
  if (body === undefined || !isInitializeRequest(body))
    return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } }, { status: 400 });
  const server = toolServer();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => sessions.set(id, { server, transport }),
  });
  await server.connect(transport);
  return transport.handleRequest(request, { parsedBody: body });
}
async function forget(all) {
  const ids = [...sessions.keys()];
  for (const id of all ? ids : ids.slice(-1)) {
    await sessions.get(id)?.server.close().catch(() => {});
    sessions.delete(id);
    log(\`server forgot session \${id}\`);
  }
}

function listen(handler) {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
const origin = (server) => \`http://127.0.0.1:\${server.address().port}\`;

const mcp = await listen(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = Buffer.concat(chunks);
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection' && k !== 'content-length'));
  const request = new Request(new URL(req.url, 'http://127.0.0.1'), { method: req.method, headers, body: body.length ? body : undefined });
  const response = await serve(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return res.end();
  res.flushHeaders();
  res.once('close', () => void response.body.cancel().catch(() => {}));
  for await (const chunk of response.body) res.write(chunk);
  res.end();
});

// The fault proxy: the harness talks to it; it forwards to the server and does each fault once, on
// the request the fault names (the first tools/call, the request after it, or the first GET).
const pending = CONFIG.faults.map((f) => ({ ...f, done: false }));
let seen = 0;
let firstCall = -1;
function faultFor(n, method, rpc) {
  if (rpc === 'tools/call' && firstCall < 0) firstCall = n;
  const f = pending.find((p) => !p.done && (p.on === 'GET' ? method === 'GET' : firstCall >= 0 && n === firstCall + p.shift));
  if (f) f.done = true;
  return f?.fault;
}
const proxy = await listen(async (req, res) => {
  const n = seen++;
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = Buffer.concat(chunks);
  let json = null;
  try {
    json = body.length ? JSON.parse(body) : null;
  } catch {}
  const rpc = req.method === 'GET' ? 'GET' : (json?.method ?? req.method);
  const headers = { ...req.headers };
  delete headers.host;
  const fault = faultFor(n, req.method, rpc);
  log(\`request \${n}: \${req.method} \${rpc}\${json?.id !== undefined ? \` id=\${JSON.stringify(json.id)}\` : ''}\${headers['mcp-session-id'] ? \` session=\${headers['mcp-session-id']}\` : ''}\${headers['last-event-id'] ? \` last-event-id=\${headers['last-event-id']}\` : ''}\`);
  if (fault) log(\`FAULT \${fault} on request \${n}\`);
  if (fault === 'session-expire' || fault === 'server-restart') await forget(fault === 'server-restart');
  if (fault === 'http-502') return res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
  if (fault === 'get-405') return res.writeHead(405, { allow: 'POST' }).end();
  if (fault?.startsWith('strip-header:')) delete headers[fault.slice('strip-header:'.length)];
  const upstream = httpRequest(\`\${origin(mcp)}\${req.url}\`, { method: req.method, headers }, (up) => {
    log(\`response \${n}: \${up.statusCode} \${up.headers['content-type'] ?? '-'}\`);
    if (fault?.startsWith('delay:')) return log(\`response \${n} held back (never delivered)\`);
    res.writeHead(up.statusCode, up.headers);
    if (fault !== 'stream-cut') return up.pipe(res);
    // Cut the SSE stream before the event that answers the request: every earlier event goes through.
    let buffer = '';
    up.setEncoding('utf8');
    up.on('data', (text) => {
      buffer += text;
      for (let i = buffer.indexOf('\\n\\n'); i >= 0; i = buffer.indexOf('\\n\\n')) {
        const block = buffer.slice(0, i + 2);
        buffer = buffer.slice(i + 2);
        const data = block.split('\\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('');
        let m = null;
        try {
          m = data ? JSON.parse(data) : null;
        } catch {}
        if (m && m.id === json?.id && ('result' in m || 'error' in m)) {
          log(\`response \${n}: stream cut before its answer\`);
          up.destroy();
          return res.end();
        }
        res.write(block);
      }
    });
    up.on('end', () => res.end());
  });
  upstream.on('error', () => res.destroy());
  upstream.end(body);
});

// The client library, through its harness.
const harness = spawn(process.execPath, ['harness.mjs', ...CONFIG.args], { stdio: ['pipe', 'pipe', 'inherit'] });
const waiting = new Map();
createInterface({ input: harness.stdout }).on('line', (line) => {
  let m;
  try {
    m = JSON.parse(line);
  } catch {
    return;
  }
  const key = m.event ? 'connect' : m.id;
  waiting.get(key)?.(m);
  waiting.delete(key);
});
const ask = (key, op) =>
  new Promise((resolve) => {
    waiting.set(key, resolve);
    harness.stdin.write(\`\${JSON.stringify(op)}\\n\`);
  });
const limit = (p, msLimit) => Promise.race([p, new Promise((r) => setTimeout(() => r(null), msLimit))]);

const seenEnds = [];
const url = \`\${origin(proxy)}/mcp\`;
log(\`\${CONFIG.client} (harness.mjs) → fault proxy \${url} → official SDK v2 server, revision \${CONFIG.revision}\`);
const connected = await limit(ask('connect', { op: 'connect', url, timeoutMs: CONFIG.timeoutMs, revision: CONFIG.revision }), 30_000);
log(\`connect: \${JSON.stringify(connected)}\`);
if (connected?.event === 'connected') {
  for (let i = 0; i < CONFIG.calls; i++) {
    const started = ms();
    const op = { op: 'call', id: i, tool: 'work', arguments: {}, progress: false, meta: {} };
    const answer = await limit(ask(i, op), 2 * CONFIG.timeoutMs + 4000);
    const took = ms() - started;
    const end = answer === null ? \`NEVER SETTLED within \${took} ms (no answer, no error, no timeout of its own fired)\` : answer.error ? \`error after \${took} ms: \${answer.error.message}\` : \`result after \${took} ms: \${JSON.stringify(answer.result.content)}\`;
    seenEnds.push(end);
    log(\`call \${i}: \${end}\`);
  }
}
console.log('');
console.log(\`SCENARIO \${CONFIG.scenario} (\${CONFIG.revision}): \${CONFIG.asks}\`);
console.log(\`EXPECTED (the spec): \${CONFIG.expected}\`);
console.log(\`SEEN: \${seenEnds.map((e, i) => \`call \${i}: \${e}\`).join('; ') || \`no connection: \${JSON.stringify(connected)}\`}\`);
harness.kill('SIGKILL');
proxy.closeAllConnections?.();
mcp.closeAllConnections?.();
process.exit(0);
`;

// mcp-faultsim client harness for Mastra's MCP client (@mastra/mcp 2.0: MCPClient with one server
// by `url`; its tools are Mastra tools an agent executes). It wraps the official SDK v2 at exactly
// @modelcontextprotocol/client 2.0.0 (its own dependency, installed under it), and changes what the
// SDK does in two ways: it negotiates with versionNegotiation 'auto' when told nothing (the SDK's own
// default is 'legacy'), and a tool call that fails with a transport error (its
// isReconnectableMCPError: "HTTP 400/401/403/404", "fetch failed", "connection closed", …) reconnects
// and is retried once, inside the library. Runs on Node 24: its engines say node >= 22.13.
// The revision is its per-server `protocolVersion`: 'legacy' for 2025-11-25, '2026-07-28' (a pin),
// none for "default" (probe server/discover, fall back to initialize).
// Options beyond the defaults, and why:
//   - `timeout`: the library's own option, the tool's `timeoutMs` when the agent sets one (else its
//     default, 60 s);
//   - `fetch`: the library's own option, given taggingFetch (harness-loop.mjs): a tool's execute
//     takes no `_meta` from its caller as the docs show it.
//   .ci/node24/node_modules/.bin/node examples/clients/mastra-client.mjs
import { MCPClient } from '@mastra/mcp';
import { causes, describeError, serveHarness, taggingFetch } from './harness-loop.mjs';

const SERVER = 'faultsim';
let clients = 0;
const PROTOCOL = { '2025-11-25': 'legacy', '2026-07-28': '2026-07-28' };

// The SDK's errors come from Mastra's own copy of it (2.0.0): read by their fields, not by class.
function classify(e) {
  const message = describeError(e);
  for (const x of causes(e)) {
    if (x?.name === 'SdkHttpError' || typeof x?.status === 'number')
      return { message, kind: x.status === 404 || x.data?.status === 404 ? 'session' : 'other' };
    if (x?.code === 'REQUEST_TIMEOUT') return { message, kind: 'timeout' };
  }
  return { message, kind: /HTTP 404/.test(message) ? 'session' : 'other' };
}

serveHarness({
  revisions: Object.keys(PROTOCOL),
  classify,
  async open(url, revision, timeout) {
    const server = { url: new URL(url), fetch: taggingFetch(), ...(revision === 'default' ? {} : { protocolVersion: PROTOCOL[revision] }) };
    const mcp = new MCPClient({
      id: `faultsim-${++clients}`,
      servers: { [SERVER]: server },
      ...(timeout === undefined ? {} : { timeout }),
    });
    let tools;
    try {
      tools = await mcp.listTools();
    } catch (e) {
      void mcp.disconnect().catch(() => {});
      throw e;
    }
    const versions = await mcp.getServerProtocolVersions?.();
    return {
      revision: versions?.[SERVER],
      async call(op) {
        const tool = tools[`${SERVER}_${op.tool}`];
        if (!tool) throw new Error(`no tool ${op.tool} (listed: ${Object.keys(tools).join(', ')})`);
        const r = await tool.execute(op.arguments ?? {}, {});
        // Mastra returns a failed input validation as a value, not a throw.
        if (r?.error === true) throw new Error(r.message ?? 'tool input rejected');
        return r.content;
      },
      async list() {
        return Object.keys(await mcp.listTools()).map((name) => name.slice(SERVER.length + 1));
      },
      close: () => mcp.disconnect(),
    };
  },
});

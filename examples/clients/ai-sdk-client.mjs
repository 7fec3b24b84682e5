// mcp-faultsim client harness for the Vercel AI SDK's MCP client (@ai-sdk/mcp: createMCPClient with
// its `http` transport), its own implementation of MCP (it wraps no official SDK). It speaks both
// revisions: by default (`protocolVersionDiscovery: true`) it probes `server/discover` at 2026-07-28
// and falls back to `initialize` (2025-11-25) when the server answers as a legacy one; asked for
// 2025-11-25 the harness turns the probe off (`protocolVersionDiscovery: false`, the library's own
// switch). It has no 2026-07-28 pin: asked for 2026-07-28 it runs its default and says what it spoke.
// Options beyond the defaults, and why:
//   - `timeout` on every request only when the agent sets one (the tool's `timeoutMs`; the library
//     has none by default, and a library judged alone runs without: a call may wait for ever);
//   - `fetch`: the library's own option, given taggingFetch (harness-loop.mjs) because callTool
//     takes no `_meta` from its caller.
// Library retries stay at the default (`maxRetries` 0 for tool calls).
//   node examples/clients/ai-sdk-client.mjs
import { createMCPClient, MCPClientError } from '@ai-sdk/mcp';
import { causes, describeError, serveHarness, taggingFetch } from './harness-loop.mjs';

function classify(e) {
  const message = describeError(e);
  const mcp = causes(e).find((x) => MCPClientError.isInstance(x));
  // A 404 answered with a JSON-RPC body reaches the caller as that JSON-RPC error (no statusCode).
  if (mcp?.statusCode === 404 || /session (not found|expired)/i.test(mcp?.message ?? '')) return { message, kind: 'session' };
  if (mcp && /timed out/.test(mcp.message) && mcp.statusCode === undefined && mcp.code === undefined) return { message, kind: 'timeout' };
  return { message, kind: 'other' };
}

serveHarness({
  revisions: ['2025-11-25', '2026-07-28'],
  classify,
  async open(url, revision, timeout) {
    const client = await createMCPClient({
      transport: { type: 'http', url, fetch: taggingFetch() },
      clientName: 'mcp-faultsim ai-sdk harness',
      ...(revision === '2025-11-25' ? { protocolVersionDiscovery: false } : {}),
      onUncaughtError: () => {},
    });
    return {
      revision: client.initializeResult.protocolVersion,
      async call(op) {
        const r = await client.callTool({
          name: op.tool,
          arguments: op.arguments ?? {},
          options: timeout === undefined ? {} : { timeout },
        });
        return r.content;
      },
      async list() {
        const r = await client.listTools({ options: timeout === undefined ? {} : { timeout } });
        return r.tools.map((t) => t.name);
      },
      close: () => client.close(),
    };
  },
});

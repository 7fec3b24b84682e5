// mcp-faultsim client harness for the OpenAI Agents SDK's MCP client (@openai/agents:
// MCPServerStreamableHttp, connect() then callTool(name, args, meta), as an Agent's mcpServers use
// it). It wraps the official SDK v2 (@modelcontextprotocol/client, an optional dependency ^2.0.0:
// here the 2.4.0 this folder pins) and changes it in two ways: it always negotiates with
// versionNegotiation 'auto' (server/discover first, initialize on a legacy server; the SDK's own
// default is 'legacy', and this library has no option to choose), and a call that finds the SDK
// client detached ("Not connected") reconnects and is retried once, one that finds the connection
// closed reconnects without a retry. Inside an Agent run its default errorFunction turns a failed
// call into text the model reads; the harness calls the server object and sees the error itself.
// No revision option: `connect` for either revision runs the same client and says what it spoke (on a
// server that speaks only 2025-11-25 that is 2025-11-25).
// Options beyond the defaults, and why: `timeout` (the library's own; default 60 s) is `timeoutMs`
// when the agent sets one; unset for a library judged alone.
//   node examples/clients/openai-agents-client.mjs
import { MCPServerStreamableHttp } from '@openai/agents';
import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { causes, describeError, serveHarness } from './harness-loop.mjs';

function classify(e) {
  const message = describeError(e);
  for (const x of causes(e)) {
    if (x instanceof SdkHttpError) return { message, kind: x.status === 404 ? 'session' : 'other' };
    if (x instanceof SdkError && x.code === SdkErrorCode.RequestTimeout) return { message, kind: 'timeout' };
  }
  return { message, kind: 'other' };
}

serveHarness({
  revisions: ['2025-11-25', '2026-07-28'],
  classify,
  async open(url, _revision, timeout) {
    const server = new MCPServerStreamableHttp({ url, name: 'faultsim', ...(timeout === undefined ? {} : { timeout }) });
    try {
      await server.connect();
    } catch (e) {
      void server.close().catch(() => {});
      throw e;
    }
    return {
      // The library does not say which revision it negotiated: read it from its SDK client (internal field).
      revision: server.underlying?.session?.getNegotiatedProtocolVersion(),
      call: (op) => server.callTool(op.tool, op.arguments ?? {}, op.meta),
      async list() {
        return (await server.listTools()).map((t) => t.name);
      },
      close: () => server.close(),
    };
  },
});

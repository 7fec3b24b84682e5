// mcp-faultsim client harness for LangChain's MCP adapters (@langchain/mcp-adapters: a
// MultiServerMCPClient with one `http` server; its tools are LangChain tools an agent invokes). It
// wraps the official SDK v1 (Client + StreamableHTTPClientTransport, from its dependency
// @modelcontextprotocol/sdk ^1.30: here 1.32.2), so it speaks 2025-11-25 only. `connect` builds the
// client and loads its tools (`getTools()`: initialize, then tools/list, as an agent starts); a
// `call` invokes the tool as an agent's tool node does (`tool.invoke(args)`).
// Options beyond the defaults, and why:
//   - `defaultToolTimeout`: the library's own option, set to the tool's `timeoutMs` when the agent
//     sets one (unset for a library judged alone: a call waits for the SDK's 60 s default);
//   - the SDK transport takes no `fetch` here, and a tool call no `_meta`: the harness's global
//     `fetch` is taggingFetch (harness-loop.mjs), which names the workload call in the request's
//     `_meta` and changes nothing else.
//   node examples/clients/langchain-client.mjs
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { describeError, serveHarness, taggingFetch } from './harness-loop.mjs';

globalThis.fetch = taggingFetch(globalThis.fetch);
const SERVER = 'faultsim';

// The adapters rethrow every tool error as a ToolException whose message is `Error calling tool
// NAME: ${String(sdkError)}` (the SDK error itself is not kept): the kind is read from that text.
function classify(e) {
  const message = describeError(e);
  if (/\(HTTP 404\)|HTTP 404|Session not found/i.test(message)) return { message, kind: 'session' };
  if (/Request timed out|TimeoutError|timed out/i.test(message)) return { message, kind: 'timeout' };
  return { message, kind: 'other' };
}

function contentOf(output) {
  // responseFormat "content_and_artifact": invoke(args) returns the content part, a string or blocks.
  const content = Array.isArray(output) && output.length === 2 && !output[0]?.type ? output[0] : output;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return (Array.isArray(content) ? content : [content]).map((c) =>
    typeof c === 'string' ? { type: 'text', text: c } : { type: c.type ?? 'text', text: c.text ?? JSON.stringify(c) },
  );
}

serveHarness({
  revisions: ['2025-11-25'],
  classify,
  async open(url, _revision, timeout) {
    const client = new MultiServerMCPClient({
      mcpServers: { [SERVER]: { transport: 'http', url } },
      ...(timeout === undefined ? {} : { defaultToolTimeout: timeout }),
    });
    let tools;
    try {
      tools = await client.getTools();
    } catch (e) {
      void client.close().catch(() => {});
      throw e;
    }
    const sdkClient = await client.getClient(SERVER);
    return {
      revision: sdkClient?.transport?.protocolVersion,
      async call(op) {
        const tool = tools.find((t) => t.name === op.tool);
        if (!tool) throw new Error(`no tool ${op.tool} (the server listed ${tools.map((t) => t.name).join(', ')})`);
        return contentOf(await tool.invoke(op.arguments ?? {}));
      },
      async list() {
        return (await client.getTools()).map((t) => t.name);
      },
      close: () => client.close(),
    };
  },
});

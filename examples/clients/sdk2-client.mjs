// mcp-faultsim client harness for the official TypeScript SDK v2 client (@modelcontextprotocol/client
// 2.4: Client + StreamableHTTPClientTransport). The revision is the SDK's own `versionNegotiation`
// option: 2025-11-25 is mode 'legacy' (initialize + a session), 2026-07-28 is { pin: '2026-07-28' }
// (server/discover, then sessionless requests with the per-request _meta envelope; no fallback), and
// "default" passes no option at all — the SDK's default is 'legacy' (its ClientOptions doc: "The
// default is 'legacy'"). The SDK's request timeout is the tool's `timeoutMs` when the agent sets one,
// else none is passed (the SDK's own 60 s default).
//   node examples/clients/sdk2-client.mjs
import { Client, SdkError, SdkErrorCode, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describeError, serveHarness } from './harness-loop.mjs';

const MODE = { '2025-11-25': 'legacy', '2026-07-28': { pin: '2026-07-28' } };

function classify(e) {
  if (e instanceof SdkHttpError) return { message: `HTTP ${e.status}: ${e.message}`, kind: e.status === 404 ? 'session' : 'other' };
  if (e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout) return { message: describeError(e), kind: 'timeout' };
  return { message: describeError(e), kind: 'other' };
}

/** The agent's timeout where it sets one; none: the SDK's own default (DEFAULT_REQUEST_TIMEOUT_MSEC). */
const timeoutOption = (timeout) => (timeout === undefined ? {} : { timeout });

serveHarness({
  revisions: Object.keys(MODE),
  classify,
  async open(url, revision, timeout) {
    const options = revision === 'default' ? {} : { versionNegotiation: { mode: MODE[revision] } };
    const client = new Client({ name: 'mcp-faultsim sdk2-client harness', version: '0.1.0' }, options);
    client.onerror = () => {};
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)), timeoutOption(timeout));
    } catch (e) {
      void client.close().catch(() => {});
      throw e;
    }
    return {
      revision: client.getNegotiatedProtocolVersion(),
      async call(op) {
        const options = { ...timeoutOption(timeout), ...(op.progress ? { onprogress: () => {} } : {}) };
        const r = await client.callTool({ name: op.tool, arguments: op.arguments ?? {}, _meta: op.meta }, options);
        return r.content;
      },
      async list(op) {
        const r = await client.listTools({ _meta: op.meta }, timeoutOption(timeout));
        return r.tools.map((t) => t.name);
      },
      close: () => client.close(),
    };
  },
});

// mcp-faultsim client harness for supergateway's Streamable HTTP → stdio mode (`npx supergateway
// --streamableHttp URL`), the other stdio-to-HTTP bridge agents put in front of a remote server. The
// harness plays the desktop agent (stdio-bridge.mjs). supergateway 4.0.0 wraps the official SDK v1
// at exactly 1.30.0 (its own dependency): one Client + StreamableHTTPClientTransport, each stdio
// request forwarded with `client.request` and the SDK's default 60 s timeout; a failed request comes
// back as a JSON-RPC error (code -32000 with "HTTP <status>" in the message for a transport error),
// and when the transport closes supergateway exits. 2025-11-25 only (SDK v1).
// The desktop agent's own request timeout is the tool's `timeoutMs` when it sets one (none for a
// library judged alone: the bridged SDK's 60 s default is the only timer).
//   node examples/clients/supergateway-client.mjs
import { createRequire } from 'node:module';
import { serveHarness } from './harness-loop.mjs';
import { binOf, classifyBridgeError, startBridge } from './stdio-bridge.mjs';

const BIN = binOf(createRequire(import.meta.url), 'supergateway', 'supergateway');

serveHarness({
  revisions: ['2025-11-25'],
  classify: classifyBridgeError,
  async open(url, _revision, timeout) {
    const bridge = startBridge([BIN, '--streamableHttp', url, '--logLevel', 'none']);
    try {
      await bridge.initialize(timeout === undefined ? undefined : timeout + 10_000);
    } catch (e) {
      bridge.close();
      throw e;
    }
    return bridge.session('2025-11-25');
  },
});

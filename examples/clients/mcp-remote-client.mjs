// mcp-faultsim client harness for mcp-remote, the stdio-to-HTTP bridge desktop agents run in front of
// a remote server (`npx mcp-remote URL`). The harness plays the desktop agent (stdio-bridge.mjs): it
// starts mcp-remote (its `mcp-remote` bin, on this Node) with the fault proxy's URL and speaks MCP to
// its stdio. mcp-remote bundles the official SDK v2 at 2.0.0 (@modelcontextprotocol/client + core,
// built into its dist) and adds recovery of its own: on a 404 it re-initializes the remote session
// itself and re-sends the request; its errors come back as JSON-RPC errors with code -32001 and a
// message starting "mcp-remote: ".
// The revision is the remote side's: its default `--protocol legacy` speaks 2025-11-25; asked for
// 2026-07-28 the harness passes `--protocol auto` (server/discover first, initialize if the server
// is a legacy one; mcp-remote has no pin) and reports what mcp-remote logged it negotiated. The
// local stdio side is always the 2025 handshake: mcp-remote answers it itself on a modern server.
// The desktop agent's own request timeout is the tool's `timeoutMs` when it sets one (mcp-remote has
// none per call; a library judged alone runs with no timer here at all).
// MCP_REMOTE_CONFIG_DIR points at a fresh temporary folder: no stored tokens from this machine.
//   node examples/clients/mcp-remote-client.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveHarness } from './harness-loop.mjs';
import { binOf, classifyBridgeError, startBridge } from './stdio-bridge.mjs';

const BIN = binOf(createRequire(import.meta.url), 'mcp-remote', 'mcp-remote');
const configDir = mkdtempSync(join(tmpdir(), 'mcp-remote-harness-'));
process.on('exit', () => rmSync(configDir, { recursive: true, force: true }));

serveHarness({
  revisions: ['2025-11-25', '2026-07-28'],
  classify: classifyBridgeError,
  async open(url, revision, timeout) {
    let spoke = '2025-11-25';
    const bridge = startBridge([BIN, url, ...(revision === '2026-07-28' ? ['--protocol', 'auto'] : [])], {
      env: { ...process.env, MCP_REMOTE_CONFIG_DIR: configDir },
      onStderr(line) {
        const modern = /Remote server speaks MCP (\S+);/.exec(line);
        if (modern) spoke = modern[1];
      },
    });
    try {
      // mcp-remote connects to the remote server before it reads its stdin: its start-up counts too.
      await bridge.initialize(timeout === undefined ? undefined : timeout + 10_000);
    } catch (e) {
      bridge.close();
      throw e;
    }
    return bridge.session(spoke);
  },
});

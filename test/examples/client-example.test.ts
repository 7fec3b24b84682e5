// docs/library.md's expectClientNoSilentFailures example, verbatim: your own client as a factory
// `(url: URL) => Promise<client>` (a connected client with callTool and close), driven against the
// official SDK server under the fault plans. The packaging test (test/package/) runs this same file.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from 'vitest';
import { expectClientNoSilentFailures } from 'mcp-faultsim/vitest';

// Called for every new session (the first, and after a gone one): return a connected client.
async function connect(url: URL) {
  const client = new Client({ name: 'my-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

test('my client never fails silently under 502s and expired sessions', { timeout: 60_000 }, async () => {
  const result = await expectClientNoSilentFailures(connect, { server: 'sdk-json', faults: ['http-502', 'session-expire'], runs: 20 });
  expect(result.stats.faultsApplied['session-expire']).toBeGreaterThan(0);
});

// The README's (and docs/library.md's) example of mcp-faultsim/vitest, as a user writes it: an SDK
// server in its stateless form (a fresh server and transport per request) as a fetch handler.
// The packaging test (test/package/) runs this same file in a fresh project against the tarball.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { expect, test } from 'vitest';
import { expectNoSilentFailures } from 'mcp-faultsim/vitest';

async function handler(request: Request): Promise<Response> {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('add-note', { description: 'stores a note' }, async () => ({ content: [{ type: 'text', text: 'stored' }] }));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(request);
}

// Each run is a real exchange (on virtual time): give the test more than vitest's default 5 s.
test('my server never fails silently under 502s and delays', { timeout: 60_000 }, async () => {
  const result = await expectNoSilentFailures(handler, { tools: { plain: 'add-note' }, faults: ['http-502', 'delay'], runs: 30 });
  expect(result.stats.faultsApplied['http-502']).toBeGreaterThan(0); // the faults did act
});

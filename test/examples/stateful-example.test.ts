// docs/library.md's stateful-server example, verbatim: a notes server that keeps state across
// requests ("stored #N" grows with every call). The helper judges results by shape, so a changed
// number is no finding. The packaging test (test/package/) runs this same file against the tarball.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { expect, test } from 'vitest';
import { expectNoSilentFailures } from 'mcp-faultsim/vitest';

const notes: string[] = [];

async function handler(request: Request): Promise<Response> {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('add-note', { description: 'stores a note' }, async () => {
    notes.push('a note');
    return { content: [{ type: 'text', text: `stored #${notes.length}` }] };
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(request);
}

test('my stateful server never fails silently under 502s', { timeout: 60_000 }, async () => {
  const result = await expectNoSilentFailures(handler, { tools: { plain: 'add-note' }, faults: ['http-502'], runs: 30 });
  expect(result.stats.faultsApplied['http-502']).toBeGreaterThan(0);
});

// A notebook MCP server on stdio (SDK v1 `McpServer` + `StdioServerTransport`), for supergateway to
// serve over Streamable HTTP as its README shows (`supergateway --stdio "<cmd>" --outputTransport
// streamableHttp`). Its own tools: `list_notes {}` (read-only) and `add_note {text}` (a side effect).
// In-memory: every process its own notebook.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const notes = [];
const server = new McpServer({ name: 'notebook', version: '1.0.0' });
server.registerTool('list_notes', { description: 'Every note', annotations: { readOnlyHint: true } }, async () => ({
  content: [{ type: 'text', text: `${notes.length} note(s)${notes.length ? `: ${notes.join('; ')}` : ''}` }],
}));
server.registerTool('add_note', { description: 'Adds one note', inputSchema: { text: z.string() } }, async ({ text }) => {
  notes.push(text);
  return { content: [{ type: 'text', text: `note ${notes.length} added` }] };
});
await server.connect(new StdioServerTransport());

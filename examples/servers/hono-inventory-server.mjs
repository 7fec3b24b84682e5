// An inventory desk on Hono with `@hono/mcp`, wired as its README shows: one SDK v1 `McpServer`, one
// `StreamableHTTPTransport`, connected on the first request to `app.all('/mcp')`; served on Node by
// `@hono/node-server`. Its own tools: `check_stock {sku}` (read-only) and `reserve_item {sku, qty}`
// (a side effect: every call takes stock). PORT from the environment or --port.
//   node examples/servers/hono-inventory-server.mjs --port 8080
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { StreamableHTTPTransport } from '@hono/mcp';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Hono } from 'hono';
import { z } from 'zod';

const { values } = parseArgs({ options: { port: { type: 'string' } } });
const stock = new Map([['tea', 100]]);

const app = new Hono();
const mcpServer = new McpServer({ name: 'inventory desk', version: '1.0.0' });
mcpServer.registerTool(
  'check_stock',
  { description: 'Units in stock for a SKU', inputSchema: { sku: z.string() }, annotations: { readOnlyHint: true } },
  async ({ sku }) => ({ content: [{ type: 'text', text: `${stock.get(sku) ?? 0} unit(s) of ${sku}` }] }),
);
mcpServer.registerTool(
  'reserve_item',
  { description: 'Takes units out of stock', inputSchema: { sku: z.string(), qty: z.number().int().positive() } },
  async ({ sku, qty }) => {
    stock.set(sku, (stock.get(sku) ?? 0) - qty);
    return { content: [{ type: 'text', text: `reserved ${qty} of ${sku}; ${stock.get(sku)} left` }] };
  },
);

const transport = new StreamableHTTPTransport();
app.all('/mcp', async (c) => {
  if (!mcpServer.isConnected()) await mcpServer.connect(transport);
  return transport.handleRequest(c);
});

serve({ fetch: app.fetch, port: Number(values.port ?? process.env.PORT), hostname: '127.0.0.1' });

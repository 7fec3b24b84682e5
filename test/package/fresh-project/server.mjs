// A user's own MCP server on node:http: the official SDK, stateless, on $PORT. The packaging test
// runs `check --wire --serve "node server.mjs"` against it (the loopback worker, from dist/).
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

const port = Number(process.env.PORT);
createServer(async (req, res) => {
  // Stateless: no standalone SSE stream to open (as the SDK's stateless example answers GET).
  if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
  const request = new Request(`http://127.0.0.1:${port}${req.url}`, { method: req.method, headers: req.headers, body });
  const server = new McpServer({ name: 'fresh', version: '1.0.0' });
  for (const name of ['work', 'progress']) {
    server.registerTool(name, { description: name }, async () => ({ content: [{ type: 'text', text: `${name} done` }] }));
  }
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const answer = await transport.handleRequest(request);
  res.writeHead(answer.status, Object.fromEntries(answer.headers));
  if (answer.body) for await (const c of answer.body) res.write(c);
  res.end();
}).listen(port, '127.0.0.1');

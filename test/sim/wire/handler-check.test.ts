// mcp-faultsim/vitest: a user's own server (a fetch handler) or client (a factory) under the fault
// plans. It must find what the wire tier finds in the SDK (a cut SSE stream hangs the SDK client),
// say it in the thrown message with the shrunk plan, and show that the faults acted when it holds.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { describe, expect, it } from 'vitest';
import { checkHandler, expectClientNoSilentFailures, expectNoSilentFailures, type FetchHandler } from '../../../vitest.ts';

/** The SDK server in its stateless form: a fresh server and transport per request. */
function statelessSdk(json: boolean): FetchHandler {
  return async (request) => {
    const server = new McpServer({ name: 'notes', version: '1.0.0' });
    server.registerTool('add-note', { description: 'stores a note' }, async () => ({ content: [{ type: 'text', text: 'stored' }] }));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
    await server.connect(transport);
    return transport.handleRequest(request);
  };
}

const tools = { plain: 'add-note' };

describe('expectNoSilentFailures (your server)', () => {
  it('holds for a JSON-answering server under 502s, and says the faults acted', async () => {
    const r = await expectNoSilentFailures(statelessSdk(true), { tools, faults: ['http-502'], runs: 20 });
    expect(r.results.map((p) => [p.property, p.verdict])).toEqual([
      ['no-silent-empty', 'holds'],
      ['no-silent-hang', 'holds'],
    ]);
    expect(r.stats.faultsApplied['http-502']).toBeGreaterThan(0);
    expect(r.wire).toEqual({ client: 'sdk', server: 'your handler' });
  });

  it('throws the shrunk counterexample when a cut SSE stream hangs the SDK client', async () => {
    const error = await expectNoSilentFailures(statelessSdk(false), { tools, faults: ['stream-cut'], runs: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(/^client {2}sdk\nserver {2}your handler\n/);
    expect(message).toMatch(/no-silent-hang VIOLATED: /);
    expect(message).toMatch(/ {2}faults {4}stream-cut at request \d+, then stream-cut at request \d+\n/);
    expect(message).toContain('reproduce expectNoSilentFailures(handler, { faults: ["stream-cut"], seed: 1, runs: 20 })');
  });

  it('restarts a handler given as { create }, and reports a bare one as unable to restart', async () => {
    const made: number[] = [];
    const create = () => (made.push(made.length), statelessSdk(true));
    const fresh = await checkHandler({ create }, { tools, faults: ['server-restart'], runs: 10 });
    expect(fresh.stats.faultsApplied['server-restart']).toBeGreaterThan(0);
    expect(made.length).toBeGreaterThan(10); // one per run (and the reference runs), one more per restart
    const bare = await checkHandler(statelessSdk(true), { tools, faults: ['server-restart', 'session-expire'], runs: 10 });
    expect(bare.skipped).toEqual({
      'server-restart': 'give the handler as { create } to let the tool restart it',
      'session-expire': 'a handler’s sessions cannot be reached into from outside it',
    });
  });

  it('says which fault or property name is wrong', async () => {
    const bad = (o: { faults?: string[]; properties?: string[] }) => expectNoSilentFailures(statelessSdk(true), { tools, ...o });
    await expect(bad({ faults: ['http-503'] })).rejects.toThrow(/^unknown fault 'http-503' \(valid: http-502, /);
    await expect(bad({ properties: ['no-silent'] })).rejects.toThrow("unknown property 'no-silent'");
  });
});

describe('expectClientNoSilentFailures (your client)', () => {
  it('drives your client factory against the SDK server: a new connection each session', async () => {
    const urls: string[] = [];
    const connect = async (url: URL) => {
      urls.push(url.href);
      const client = new Client({ name: 'my-client', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url));
      return client;
    };
    const r = await expectClientNoSilentFailures(connect, { server: 'sdk-json', faults: ['http-502', 'session-expire'], runs: 20 });
    expect(r.wire).toEqual({ client: 'your client', server: 'sdk-json' });
    expect(r.stats.faultsApplied['session-expire']).toBeGreaterThan(0);
    expect(r.stats.reconnects).toBeGreaterThan(0);
    expect(urls.length).toBeGreaterThan(20);
  });
});

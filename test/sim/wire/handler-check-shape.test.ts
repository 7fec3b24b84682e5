// mcp-faultsim/vitest judges results by shape, as the audit does: a stateful notes server whose
// add-note answers "stored #N" (N grows with every call, fault or not) passes under http-502 with no
// false finding; a server whose fault-free run already fails is reported as broken without faults,
// with its own message, never as a fault's finding; `faults: []` is refused in one line.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { describe, expect, it } from 'vitest';
import { expectNoSilentFailures, type FetchHandler } from '../../../vitest.ts';

/** A stateful notes server: one counter for the handler's life, so every answer's text differs. */
function notesServer(): FetchHandler {
  let stored = 0;
  return async (request) => {
    const server = new McpServer({ name: 'notes', version: '1.0.0' });
    server.registerTool('add-note', { description: 'stores a note' }, async () => ({
      content: [{ type: 'text', text: `stored #${++stored}` }],
    }));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return transport.handleRequest(request);
  };
}

/** A server behind a proxy that answers every request 503: broken before any fault. */
const brokenServer = (): FetchHandler => async () => new Response('service unavailable', { status: 503 });

const tools = { plain: 'add-note' };

describe('expectNoSilentFailures judges by shape', () => {
  it('a stateful server answering "stored #N" passes under http-502: no false silent-empty', async () => {
    const r = await expectNoSilentFailures(notesServer(), { tools, faults: ['http-502'], runs: 30 });
    expect(r.results.map((p) => [p.property, p.verdict])).toEqual([
      ['no-silent-empty', 'holds'],
      ['no-silent-hang', 'holds'],
    ]);
    expect(r.stats.faultsApplied['http-502']).toBeGreaterThan(0);
  }, 120_000);

  it('a server broken without faults: its own message, not a finding of a fault', async () => {
    await expect(expectNoSilentFailures(brokenServer(), { tools, faults: ['http-502'], runs: 5 })).rejects.toThrow(
      /^broken without faults: the fault-free run already fails \(call 0 failed: .*\); nothing under a fault can be judged$/,
    );
  }, 60_000);

  it('faults: [] is refused in one line', async () => {
    const e = await expectNoSilentFailures(notesServer(), { tools, faults: [], runs: 5 }).catch((x: Error) => x);
    expect(e).toBeInstanceOf(TypeError);
    expect((e as Error).message).toBe(
      'faults: [] names no fault to inject: give at least one fault or family, or leave faults out for all of them',
    );
    expect((e as Error).message.split('\n')).toHaveLength(1);
  });
});

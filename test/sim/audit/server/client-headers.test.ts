// The audit's own clients keep the rules it checks in others (issue 37 item 7): run against a real
// server (@modelcontextprotocol/server-everything, started here on loopback) through a recording
// proxy, every request its model client and its probe client sent carries every header a 2025-11-25
// client MUST send — Accept listing both types on each POST, and after initialize the negotiated
// MCP-Protocol-Version and the issued Mcp-Session-Id on every request, GETs and resumptions included.
// With the version header the SDK server primes each stream with an event id; the audit's SSE reader
// keeps that event (it carries no JSON), so a stream cut before its answer is resumed from that id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAudit } from '../../../../sim/audit/server/runner.ts';
import { EVERYTHING_TOOLS } from '../../../../sim/wire/protocol/tool-maps.ts';
import { ServedProcess, targetEndpoint } from '../../../../sim/wire/process/loopback.ts';
import { EVERYTHING } from '../../../fixtures/servers.ts';
import { type RecordingProxy, recordingProxy } from '../../../fixtures/recording-proxy.ts';

let served: ServedProcess;
let proxy: RecordingProxy;

beforeAll(async () => {
  served = await ServedProcess.start(EVERYTHING);
  proxy = await recordingProxy(served.url);
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await served?.stop();
});

/** The media types of an Accept header, parsed (parameters dropped), not matched as substrings. */
const mediaTypes = (accept: string | undefined) => (accept ?? '').split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
const rpcOf = (body: string): string => {
  try {
    return String(JSON.parse(body).method ?? '(response)');
  } catch {
    return '(none)';
  }
};

describe("the audit's clients on the wire (2025-11-25)", () => {
  it('send Accept, MCP-Protocol-Version and Mcp-Session-Id wherever a client MUST; a primed stream cut before its answer is resumed', async () => {
    const endpoint = await targetEndpoint(proxy.url, EVERYTHING_TOOLS);
    const audit = await runAudit(
      { kind: 'loopback', endpoint },
      { serverArgs: '--target', only: ['stream-cut-call', 'http-502-call', 'get-405', 'two-callers-one-id'] },
    );
    const all = proxy.requests;
    expect(all.length).toBeGreaterThan(10);
    const posts = all.filter((r) => r.method === 'POST');
    const badAccept = posts.filter(
      (r) => !['application/json', 'text/event-stream'].every((t) => mediaTypes(r.headers.accept).includes(t)),
    );
    expect(badAccept.map((r) => rpcOf(r.body))).toEqual([]);
    expect(posts.filter((r) => !(r.headers['content-type'] ?? '').startsWith('application/json')).length).toBe(0);
    // Every request after the first initialize (before it: the reachability GET of --target) names the
    // revision and the session, unless it is an initialize itself.
    const first = all.findIndex((r) => rpcOf(r.body) === 'initialize');
    expect(first).toBeGreaterThanOrEqual(0);
    const later = all.slice(first).filter((r) => rpcOf(r.body) !== 'initialize');
    expect(later.length).toBeGreaterThan(5);
    const lacking = (name: string) => later.filter((r) => !r.headers[name]).map((r) => `${r.method} ${rpcOf(r.body)}`);
    expect(lacking('mcp-protocol-version')).toEqual([]);
    expect(lacking('mcp-session-id')).toEqual([]);
    expect(new Set(later.map((r) => r.headers['mcp-protocol-version']))).toEqual(new Set(['2025-11-25']));
    expect(later.filter((r) => r.method === 'GET').every((r) => mediaTypes(r.headers.accept).includes('text/event-stream'))).toBe(true);
    // The cut stream carried only its priming event (an id, empty data): the resumption names that id.
    const resumed = all.filter((r) => r.method === 'GET' && r.headers['last-event-id']);
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed.every((r) => r.headers['last-event-id'] !== '')).toBe(true);
    const cut = audit.scenarios.find((s) => s.name === 'stream-cut-call')!;
    expect(cut.spec?.checks[0]?.evidence).toMatch(/the stream resumed/);
  }, 180_000);
});

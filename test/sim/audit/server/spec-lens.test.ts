// The spec lens, requirement by requirement: a server that conforms and one that violates (small
// handlers: the official SDK's servers in-process, each wrapped by a few lines that break exactly
// one requirement) give `conforms` and `violates`; what the spec makes optional or leaves open
// never reads `violates`. Every server here is in-process (no network, virtual time).
import { describe, expect, it } from 'vitest';
import { REQUIREMENTS } from '../../../../sim/audit/requirements.ts';
import { runAudit } from '../../../../sim/audit/server/runner.ts';
import { checkOf } from '../../../../sim/audit/server/spec-lens.ts';
import { handlerEndpoint } from '../../../../sim/wire/process/handler-server.ts';
import { SdkServer } from '../../../../sim/wire/peers/sdk-server.ts';
import { Sdk2Server } from '../../../../sim/wire/peers/sdk2-server.ts';
import type { ServerAdapter } from '../../../../sim/wire/net/server-adapter.ts';
import type { WireServerSpec } from '../../../../sim/wire/setup.ts';
import { combination, type Revision } from '../../../../models/policies.ts';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import type { ToolChoice } from '../../../../sim/audit/server/tool-choice.ts';
import { NO_ADDITIONS } from '../../../../models/additions.ts';

type Next = (r: Request) => Promise<Response>;
type Tweak = (req: Request, next: Next) => Promise<Response>;

/** An in-process server behind a handler (so the audit meets it as it meets a user's), one tweak in front. */
function wrapped(make: () => ServerAdapter, tweak: Tweak = (r, next) => next(r)): WireServerSpec {
  const create = () => {
    const inner = make();
    return (req: Request) => tweak(req, (r) => inner.handle(r, 0));
  };
  return { kind: 'loopback', endpoint: handlerEndpoint({ create }, { tools: { plain: 'work' }, name: 'test handler' }) };
}
const legacy = () => new SdkServer('sdk-json');
const modern = () => new Sdk2Server('sdk2-json', '2026-07-28');

const rpcOf = async (req: Request) => (req.method === 'POST' ? JSON.parse(await req.clone().text()) : null);
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { 'content-type': 'application/json', ...headers } });

/** The spec check of `requirement` in the row of `scenario`. */
async function lens(server: WireServerSpec, scenario: string, requirement: string, revisions: Revision[] = ['2025-11-25']) {
  const a = await runAudit(server, { serverArgs: '--target test', only: [scenario], loopbackRevisions: revisions });
  const row = a.scenarios.find((s) => s.name === scenario)!;
  const check = row.spec?.checks.find((c) => c.requirement === requirement);
  expect(check, `${scenario}: ${JSON.stringify(row.spec)}`).toBeDefined();
  return { check: check!, row, audit: a };
}

/** A server that keeps its answers in one table keyed by the JSON-RPC id: two callers with one id get one answer. */
function sharedIdTable(modernRevision: boolean): WireServerSpec {
  const create = () => {
    const answers = new Map<unknown, unknown>();
    let sessions = 0;
    return async (req: Request): Promise<Response> => {
      if (req.method !== 'POST') return new Response(null, { status: 405 });
      const m = (await req.json()) as any;
      if (m.method === 'initialize')
        return json(
          200,
          {
            jsonrpc: '2.0',
            id: m.id,
            result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 't', version: '0' } },
          },
          { 'mcp-session-id': `s${++sessions}` },
        );
      if (!('id' in m)) return new Response(null, { status: 202 });
      // Every answer is kept under its JSON-RPC id alone, whatever the session or method: the bug.
      answers.set(
        m.id,
        m.method === 'tools/call'
          ? { content: [{ type: 'text', text: `work for call ${m.params._meta['io.faultsim/call']}` }] }
          : { tools: [] },
      );
      await new Promise((r) => setImmediate(r));
      return json(200, {
        jsonrpc: '2.0',
        id: m.id,
        result: { ...(answers.get(m.id) as object), ...(modernRevision ? { resultType: 'complete' } : {}) },
      });
    };
  };
  return { kind: 'loopback', endpoint: handlerEndpoint({ create }, { tools: { plain: 'work' }, name: 'shared id table' }) };
}

describe('a MAY is never violated', () => {
  it('checkOf reads a violation of a MAY as not implemented, and of a behaviour the spec leaves open as unspecified', () => {
    const open = REQUIREMENTS.filter((r) => r.level === 'MAY' || r.level === 'unspecified');
    expect(open.length).toBeGreaterThan(1);
    for (const r of open) {
      const c = checkOf(r.id, { verdict: 'violates', evidence: 'x' });
      expect(c.verdict, r.id).toBe(r.level === 'MAY' ? 'optional, not implemented' : 'unspecified');
    }
    const must = REQUIREMENTS.find((r) => r.level === 'MUST')!;
    expect(checkOf(must.id, { verdict: 'violates', evidence: 'x' }).verdict).toBe('violates');
  });
});

describe('the spec lens, 2025-11-25 server requirements', () => {
  it('unknown-session-404: 404 for a session the server no longer knows conforms; 400 violates (forgotten at the proxy)', async () => {
    const ok = await lens(wrapped(legacy), 'unknown-session', '2025-11-25/unknown-session-404');
    expect(ok.check.verdict).toBe('conforms');
    expect(ok.row.evidence).toContain('forgotten at the proxy');
    const bad = await lens(
      wrapped(legacy, async (r, next) => {
        const res = await next(r);
        return res.status === 404 ? json(400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'No valid session ID' } }) : res;
      }),
      'unknown-session',
      '2025-11-25/unknown-session-404',
    );
    expect(bad.check.verdict).toBe('violates');
    expect(bad.check.evidence).toMatch(/^HTTP 400 \(JSON-RPC -32000\) application\/json to tools\/call .*: not 404$/);
    // The forgiving client recovers (a new session after any failure); the spec-literal one is stuck.
    expect(bad.row.verdict).toBe('pass');
    expect(bad.row.literal?.verdict).toBe('stuck');
    expect(bad.audit.conforms).toBe(false);
  });

  it('missing-session-id-400: 400 conforms; 404 violates', async () => {
    expect((await lens(wrapped(legacy), 'strip-session-id', '2025-11-25/missing-session-id-400')).check.verdict).toBe('conforms');
    const bad = wrapped(legacy, async (r, next) => {
      const res = await next(r);
      return res.status === 400 && !r.headers.has('mcp-session-id') ? new Response(null, { status: 404 }) : res;
    });
    expect((await lens(bad, 'strip-session-id', '2025-11-25/missing-session-id-400')).check.verdict).toBe('violates');
  });

  it('request-content-type: 406 (or an answer of the two types) conforms; a 200 text/plain violates', async () => {
    const ok = await lens(wrapped(legacy), 'strip-accept', '2025-11-25/request-content-type');
    expect(ok.check).toMatchObject({ verdict: 'conforms', evidence: expect.stringContaining('refused as Not Acceptable') });
    const bad = wrapped(legacy, async (r, next) =>
      r.headers.has('accept') ? next(r) : new Response('ok', { status: 200, headers: { 'content-type': 'text/plain' } }),
    );
    expect((await lens(bad, 'strip-accept', '2025-11-25/request-content-type')).check.verdict).toBe('violates');
  });

  it('get-sse-or-405: a standalone stream or 405 conforms; 404 violates', async () => {
    expect((await lens(wrapped(legacy), 'get-405', '2025-11-25/get-sse-or-405')).check.verdict).toBe('conforms');
    const bad = wrapped(legacy, (r, next) => (r.method === 'GET' ? Promise.resolve(new Response(null, { status: 404 })) : next(r)));
    expect((await lens(bad, 'get-405', '2025-11-25/get-sse-or-405')).check.verdict).toBe('violates');
  });

  it('own-answer-per-request: two sessions with the same id in flight each get their own answer; a shared id table violates (silent)', async () => {
    const ok = await lens(wrapped(legacy), 'two-callers-one-id', '2025-11-25/own-answer-per-request');
    expect([ok.check.verdict, ok.row.verdict]).toEqual(['conforms', 'pass']);
    const bad = await lens(sharedIdTable(false), 'two-callers-one-id', '2025-11-25/own-answer-per-request');
    expect([bad.check.verdict, bad.row.verdict]).toEqual(['violates', 'silent']);
    expect(bad.check.evidence).toMatch(/caller \d \(tools\/(call work|list)\) HTTP 200 application\/json the other caller's answer/);
  });

  it('reinit-live-session is recorded, never a violation: rejected (SDK) and adopted (the model server) alike', async () => {
    const rejected = await lens(wrapped(legacy), 'reinit-live-session', '2025-11-25/reinit-live-session');
    expect(rejected.check).toMatchObject({ verdict: 'unspecified', evidence: expect.stringContaining('HTTP 400 (JSON-RPC -32600)') });
    const model: WireServerSpec = { kind: 'model', policy: combination({}, NO_ADDITIONS).server };
    const adopted = await lens(model, 'reinit-live-session', '2025-11-25/reinit-live-session');
    expect(adopted.check).toMatchObject({ verdict: 'unspecified', evidence: expect.stringContaining('answered and kept the session') });
  });

  it('resumable-stream is optional: a server without an event store reads `optional, not implemented`, never `violates`', async () => {
    const sdk = await lens(
      wrapped(() => new SdkServer('sdk-sse')),
      'stream-cut-call',
      '2025-11-25/resumable-stream',
    );
    expect(sdk.check).toMatchObject({
      verdict: 'optional, not implemented',
      evidence: 'the cut stream carried no event id: no resumption offered',
    });
  });
});

describe('the spec lens, 2026-07-28 server requirements', () => {
  const M: Revision[] = ['2026-07-28'];

  it('protocol-version-missing-400: 400 with -32020 conforms; serving the request violates', async () => {
    expect((await lens(wrapped(modern), 'strip-protocol-version', '2026-07-28/protocol-version-missing-400', M)).check.verdict).toBe(
      'conforms',
    );
    const lenient = wrapped(modern, (r, next) => {
      if (r.headers.has('mcp-protocol-version')) return next(r);
      const h = new Headers(r.headers);
      h.set('mcp-protocol-version', '2026-07-28');
      return next(new Request(r, { headers: h }));
    });
    expect((await lens(lenient, 'strip-protocol-version', '2026-07-28/protocol-version-missing-400', M)).check.verdict).toBe('violates');
    // A server that also serves 2025-11-25 MAY read a request without the header as 2025-03-26: serving it is no violation.
    const dual = await lens(lenient, 'strip-protocol-version', '2026-07-28/protocol-version-missing-400', ['2025-11-25', ...M]);
    expect(dual.check.verdict).toBe('not tested');
    expect(dual.check.evidence).toMatch(/served as a legacy request, which a server that also serves earlier revisions MAY do/);
  });

  it('protocol-version-mismatch-400: 400 with -32020 conforms; trusting the body violates', async () => {
    expect((await lens(wrapped(modern), 'mismatch-protocol-version', '2026-07-28/protocol-version-mismatch-400', M)).check.verdict).toBe(
      'conforms',
    );
    const trusting = wrapped(modern, (r, next) => {
      const h = new Headers(r.headers);
      h.set('mcp-protocol-version', '2026-07-28');
      return next(new Request(r, { headers: h }));
    });
    expect((await lens(trusting, 'mismatch-protocol-version', '2026-07-28/protocol-version-mismatch-400', M)).check.verdict).toBe(
      'violates',
    );
  });

  it('get-405: 405 conforms; a stream violates', async () => {
    expect((await lens(wrapped(modern), 'get-405', '2026-07-28/get-405', M)).check.verdict).toBe('conforms');
    const streams = wrapped(modern, (r, next) =>
      r.method === 'GET' ? Promise.resolve(new Response('', { status: 200, headers: { 'content-type': 'text/event-stream' } })) : next(r),
    );
    expect((await lens(streams, 'get-405', '2026-07-28/get-405', M)).check.verdict).toBe('violates');
  });

  it('server-discover: answered conforms; method not found violates', async () => {
    expect((await lens(wrapped(modern), 'server-discover', '2026-07-28/server-discover', M)).check.verdict).toBe('conforms');
    const missing = wrapped(modern, async (r, next) =>
      (await rpcOf(r))?.method === 'server/discover'
        ? json(404, { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } })
        : next(r),
    );
    expect((await lens(missing, 'server-discover', '2026-07-28/server-discover', M)).check.verdict).toBe('violates');
  });

  it('own-answer-per-request: the SDK conforms; a shared id table violates', async () => {
    expect((await lens(wrapped(modern), 'two-callers-one-id', '2026-07-28/own-answer-per-request', M)).check.verdict).toBe('conforms');
    expect((await lens(sharedIdTable(true), 'two-callers-one-id', '2026-07-28/own-answer-per-request', M)).check.verdict).toBe('violates');
  });
});

/** A 2026-07-28 SDK v2 server whose `book` waits `ms` then books (honouring the abort signal the SDK
 *  raises when the response stream closes, or not; `ms` < 0: books at once, no wait), and whose
 *  `bookings` reads the count. */
function bookingServer(ms: number, honoursCancel: boolean): WireServerSpec {
  const create = () => {
    let booked = 0;
    const handler = createMcpHandler(
      () => {
        const server = new McpServer({ name: 'bookings', version: '0' });
        server.registerTool('bookings', { description: 'how many', annotations: { readOnlyHint: true } }, async () => ({
          content: [{ type: 'text', text: `${booked} booked` }],
        }));
        server.registerTool('book', { description: 'books one, slowly' }, async (ctx) => {
          const signal = ctx.mcpReq.signal;
          if (ms >= 0)
            await new Promise<void>((resolve, reject) => {
              const timer = setTimeout(resolve, ms);
              if (honoursCancel) signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
            });
          booked++;
          return { content: [{ type: 'text', text: 'booked' }] };
        });
        return server;
      },
      { legacy: 'reject', responseMode: 'sse' },
    );
    return (req: Request) => handler.fetch(req);
  };
  return { kind: 'loopback', endpoint: handlerEndpoint({ create }, { tools: { plain: 'bookings' }, name: 'bookings' }) };
}

const BOOKINGS: ToolChoice = {
  tools: { plain: { name: 'bookings', args: () => ({}) }, progress: { name: 'bookings', args: () => ({}) } },
  sideEffect: null,
  said: 'bookings, book',
  byShape: true,
  slow: { tool: { name: 'book', args: () => ({}) }, read: { name: 'bookings', args: () => ({}) } },
};

async function closeCancels(server: WireServerSpec, toolChoice?: ToolChoice) {
  const a = await runAudit(server, {
    serverArgs: '--target test',
    only: ['close-cancels'],
    loopbackRevisions: ['2026-07-28'],
    ...(toolChoice ? { toolChoice } : {}),
  });
  return a.scenarios[0]!.spec!.checks.find((c) => c.requirement === '2026-07-28/close-is-cancellation')!;
}

describe('the spec lens, 2026-07-28: closing a response stream is cancellation', () => {
  it('a tool that stops when its stream closes conforms; one that books anyway violates', async () => {
    const ok = await closeCancels(bookingServer(150, true), BOOKINGS);
    expect(ok).toMatchObject({ verdict: 'conforms', evidence: expect.stringContaining('"1 booked"') });
    const bad = await closeCancels(bookingServer(150, false), BOOKINGS);
    expect(bad.verdict).toBe('violates');
    // Reached: the effect was absent at the close and landed after it.
    expect(bad.evidence).toMatch(
      /answered .*"1 booked".* at the close and .*"2 booked".* after twice a whole call's time: the work of the closed request landed after the close$/,
    );
  });

  it('a tool too fast to be closed mid-run, or no --slow-call: not tested, with why', async () => {
    const fast = await closeCancels(bookingServer(-1, false), BOOKINGS);
    expect(fast).toMatchObject({ verdict: 'not tested', evidence: expect.stringContaining('finishes before a close reaches it') });
    const none = await closeCancels(bookingServer(150, true));
    expect(none).toMatchObject({
      verdict: 'not tested',
      evidence: expect.stringMatching(/^needs a slow tool with a visible effect: name it with --slow-call/),
    });
  });
});

describe('every server requirement is judged by a test above, or is pending', () => {
  it('names no requirement this file leaves out', () => {
    const judged = [
      'unknown-session-404',
      'missing-session-id-400',
      'request-content-type',
      'get-sse-or-405',
      'own-answer-per-request',
      'reinit-live-session',
      'resumable-stream',
      'protocol-version-missing-400',
      'protocol-version-mismatch-400',
      'get-405',
      'server-discover',
      'close-is-cancellation',
      // judged by transport-probes.test.ts, each against a fixture that keeps and one that breaks it
      'invalid-protocol-version-400',
      'origin-403',
      'accepted-202-empty',
      'message-schema',
      'auth-401-challenge',
    ];
    for (const r of REQUIREMENTS.filter((x) => x.binds === 'server')) expect(judged.includes(r.id.split('/')[1]!), r.id).toBe(true);
    for (const id of judged)
      expect(
        REQUIREMENTS.some((r) => r.id.endsWith(`/${id}`)),
        id,
      ).toBe(true);
  });
});

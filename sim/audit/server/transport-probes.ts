// The transport probes of issue 37 item 6: one raw request each (or two), a requirement of the
// Streamable HTTP transport judged from the answer. A 2025-11-25 MCP-Protocol-Version that is
// unsupported or no version gets 400; a foreign Origin gets 403; a POSTed notification (or response)
// the server accepts gets 202 with no body; a DELETEd or never-issued session gets 404; a JSON-RPC id
// reused while in flight in one session still gets each caller its own answer; and every message the
// probe clients received follows the revision's schema. Each is spec-only: the spec lens judges it.
import type { Revision } from '../../../models/policies.ts';
import type { AuditVerdict, SpecCheck } from '../../core/audit-verdict.ts';
import type { WireServerSpec } from '../../wire/setup.ts';
import { describeAnswer, MODERN, modernMeta, ProbeClient, type ProbeAnswer } from './probe-client.ts';
import { schemaSource } from './message-schema.ts';
import { checkOf } from './spec-lens.ts';
import { realSleep } from '../../wire/protocol/virtual-time.ts';
import type { ToolChoice } from './tool-choice.ts';

/** A probe as probes.ts lists it. */
export interface TransportProbe {
  name: string;
  asks: string;
  revisions: readonly Revision[];
  run(
    server: WireServerSpec,
    revisions: readonly Revision[],
    tools?: ToolChoice,
  ): Promise<{ verdict: AuditVerdict; why: string; evidence: string; checks: SpecCheck[] }>;
}

const LEGACY = '2025-11-25';
const SPEC_ONLY = 'a spec probe (no fault): the spec lens judges it';
const FOREIGN = 'http://evil.example.com';

export async function withClient<T>(server: WireServerSpec, f: (c: ProbeClient) => Promise<T>): Promise<T> {
  const c = new ProbeClient(server);
  try {
    return await f(c);
  } finally {
    await c.close();
  }
}

export function specOnly(checks: SpecCheck[]) {
  return { verdict: 'not applicable' as AuditVerdict, why: SPEC_ONLY, evidence: checks.map((c) => c.evidence).join('; '), checks };
}

const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });
const noBody = (a: ProbeAnswer) => a.body === '';

async function invalidProtocolVersion(server: WireServerSpec) {
  const id = '2025-11-25/invalid-protocol-version-400';
  const check = await withClient(server, async (c) => {
    const s = await c.openSession();
    if (!s) return checkOf(id, { verdict: 'not tested', evidence: 'initialize was refused' });
    const control = await c.send('POST', c.legacyHeaders(s.sessionId, s.version), ping(1));
    const sent = ['1999-01-01', 'not-a-version'];
    const answers: ProbeAnswer[] = [];
    for (const v of sent)
      answers.push(await c.send('POST', { ...c.legacyHeaders(s.sessionId, s.version), 'mcp-protocol-version': v }, ping(2)));
    const what = sent.map((v, i) => `ping with MCP-Protocol-Version ${v}: ${describeAnswer(answers[i]!)}`).join('; ');
    if (control.status >= 400)
      return checkOf(id, {
        verdict: 'not tested',
        evidence: `a ping with the negotiated version was refused too (${describeAnswer(control)})`,
      });
    return answers.every((a) => a.status === 400)
      ? checkOf(id, { verdict: 'conforms', evidence: what })
      : checkOf(id, { verdict: 'violates', evidence: `${what}: not 400 (the negotiated ${s.version}: ${describeAnswer(control)})` });
  });
  return specOnly([check]);
}

async function foreignOrigin(server: WireServerSpec, revisions: readonly Revision[]) {
  const checks: SpecCheck[] = [];
  for (const revision of revisions) {
    const id = `${revision}/origin-403`;
    checks.push(
      await withClient(server, async (c) => {
        const own = new URL(c.url).origin;
        const ask = (origin: string) =>
          revision === MODERN
            ? c.send(
                'POST',
                { ...c.modernHeaders('server/discover'), origin },
                { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modernMeta() } },
              )
            : c.send('POST', { accept: c.legacyHeaders(null).accept!, origin }, c.initializeBody());
        const foreign = await ask(FOREIGN);
        const control = await ask(own);
        const what = `${revision === MODERN ? 'server/discover' : 'initialize'} with Origin ${FOREIGN}: ${describeAnswer(foreign)}; with Origin ${own}: ${describeAnswer(control)}`;
        if (control.status === 403) return checkOf(id, { verdict: 'not tested', evidence: `${what}: its own origin is refused too` });
        return foreign.status === 403
          ? checkOf(id, { verdict: 'conforms', evidence: what })
          : checkOf(id, { verdict: 'violates', evidence: `${what}: a foreign Origin was not refused with 403` });
      }),
    );
  }
  return specOnly(checks);
}

async function postNotification(server: WireServerSpec, revisions: readonly Revision[]) {
  const checks: SpecCheck[] = [];
  const judge = (id: string, what: string, a: ProbeAnswer) =>
    a.status === 202 && noBody(a)
      ? checkOf(id, { verdict: 'conforms', evidence: `${what}: 202, no body` })
      : a.status >= 400
        ? checkOf(id, {
            verdict: 'conforms',
            evidence: `${what}: ${describeAnswer(a)} (not accepted: an error status, as the spec allows)`,
          })
        : checkOf(id, {
            verdict: 'violates',
            evidence: `${what}: ${describeAnswer(a)}${a.body ? ` with a body of ${a.body.length} bytes` : ''}, not 202 with no body`,
          });
  if (revisions.includes(LEGACY))
    checks.push(
      await withClient(server, async (c) => {
        const id = '2025-11-25/accepted-202-empty';
        const s = await c.openSession();
        if (!s) return checkOf(id, { verdict: 'not tested', evidence: 'initialize was refused' });
        const headers = c.legacyHeaders(s.sessionId, s.version);
        const n = await c.send('POST', headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
        const first = judge(id, 'notifications/initialized POSTed', n);
        if (first.verdict === 'violates') return first;
        const r = await c.send('POST', headers, { jsonrpc: '2.0', id: 'faultsim-unsolicited-1', result: {} });
        const second = judge(id, 'a JSON-RPC response POSTed', r);
        return second.verdict === 'violates' ? second : { ...second, evidence: `${first.evidence}; ${second.evidence}` };
      }),
    );
  if (revisions.includes(MODERN))
    checks.push(
      await withClient(server, async (c) => {
        const a = await c.send('POST', c.modernHeaders('notifications/cancelled'), {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 'faultsim-none', _meta: modernMeta() },
        });
        return judge('2026-07-28/accepted-202-empty', 'notifications/cancelled POSTed', a);
      }),
    );
  return specOnly(checks);
}

async function deleteThenRequest(server: WireServerSpec) {
  const id = '2025-11-25/unknown-session-404';
  const check = await withClient(server, async (c) => {
    const s = await c.openSession();
    if (!s) return checkOf(id, { verdict: 'not tested', evidence: 'initialize was refused' });
    if (!s.sessionId)
      return checkOf(id, { verdict: 'not tested', evidence: 'the server issued no session id: there is no session to delete' });
    const headers = c.legacyHeaders(s.sessionId, s.version);
    const del = await c.send('DELETE', headers);
    if (del.status === 405)
      return checkOf(id, { verdict: 'not tested', evidence: 'DELETE answered 405: the server does not let clients end a session' });
    if (del.status >= 300)
      return checkOf(id, { verdict: 'not tested', evidence: `DELETE of the session was refused: ${describeAnswer(del)}` });
    const after = await c.send('POST', headers, ping(3));
    const what = `DELETE of the session: ${describeAnswer(del)}; a ping on it after: ${describeAnswer(after)}`;
    return after.status === 404
      ? checkOf(id, { verdict: 'conforms', evidence: what })
      : checkOf(id, { verdict: 'violates', evidence: `${what}: not 404` });
  });
  return specOnly([check]);
}

async function madeUpSession(server: WireServerSpec) {
  const id = '2025-11-25/unknown-session-404';
  const check = await withClient(server, async (c) => {
    const s = await c.openSession();
    if (!s) return checkOf(id, { verdict: 'not tested', evidence: 'initialize was refused' });
    if (!s.sessionId)
      return checkOf(id, {
        verdict: 'not tested',
        evidence: 'the server issued no session id (stateless): a made-up one has nothing to be unknown to',
      });
    const made = `faultsim-never-issued-${s.sessionId.length}`;
    const a = await c.send('POST', c.legacyHeaders(made, s.version), ping(4));
    const what = `a ping with Mcp-Session-Id ${made}, never issued: ${describeAnswer(a)} (the sentence covers a terminated session; an id never issued is read as one)`;
    return a.status === 404
      ? checkOf(id, { verdict: 'conforms', evidence: what })
      : checkOf(id, { verdict: 'violates', evidence: `${what}: not 404` });
  });
  return specOnly([check]);
}

/** How long the id-reuse probe waits for each of its two calls (real ms): the server may drop one. */
const REUSE_WAIT_MS = 5000;
const textOf = (a: ProbeAnswer) => JSON.stringify(a.message?.result?.content ?? null);

/** One session, two tools/calls in flight under one id, each asking for a different text back. */
async function idReusedInFlight(server: WireServerSpec) {
  const id = '2025-11-25/own-answer-per-request';
  return withClient(server, async (c) => {
    const s = await c.openSession();
    if (!s) return specOnly([checkOf(id, { verdict: 'not tested', evidence: 'initialize was refused' })]);
    const headers = c.legacyHeaders(s.sessionId, s.version);
    // A server may never answer one of the two (the SDK v1 transport maps a stream by request id): bounded.
    const bounded = (p: Promise<ProbeAnswer>) => Promise.race([p, realSleep(REUSE_WAIT_MS).then(() => null)]);
    const both = await Promise.all([
      bounded(c.send('POST', headers, c.callBody(9, 1, false))),
      bounded(c.send('POST', headers, c.callBody(9, 2, false))),
    ]);
    const silent = both.filter((a) => a === null).length;
    if (silent) {
      const evidence = `one session, tools/call id 9 twice in flight (the client breaks its own MUST NOT; the server's reaction is open): ${silent} of the 2 calls got no answer within ${REUSE_WAIT_MS / 1000} s, and no caller got the other's`;
      return specOnly([checkOf(id, { verdict: 'conforms', evidence })]);
    }
    const alone = [await c.send('POST', headers, c.callBody(11, 1, false)), await c.send('POST', headers, c.callBody(12, 2, false))];
    const evidence = `one session, tools/call id 9 twice in flight (the client breaks its own MUST NOT; the server's reaction is open): ${both.map((a, i) => `caller ${i + 1} ${describeAnswer(a!)}`).join('; ')}`;
    if (alone.some((a) => !a.message?.result) || textOf(alone[0]!) === textOf(alone[1]!))
      return specOnly([
        checkOf(id, { verdict: 'not tested', evidence: `${evidence}: the tool's answers to the two calls cannot be told apart` }),
      ]);
    const crossed = both.some((a, i) => a!.message?.result && textOf(a!) === textOf(alone[1 - i]!));
    const check = crossed
      ? checkOf(id, { verdict: 'violates', evidence: `${evidence}: a caller got the other call's answer` })
      : checkOf(id, { verdict: 'conforms', evidence: `${evidence}: no caller got the other's answer` });
    return {
      ...specOnly([check]),
      ...(crossed ? { verdict: 'silent' as AuditVerdict, why: 'a caller got the answer of the other call under the same id' } : {}),
    };
  });
}

/** The common requests of each revision, every message received checked against its schema. */
async function messageSchema(server: WireServerSpec, revisions: readonly Revision[]) {
  const checks: SpecCheck[] = [];
  for (const revision of revisions)
    checks.push(
      await withClient(server, async (c) => {
        const id = `${revision}/message-schema`;
        if (revision === MODERN) {
          const meta = { _meta: modernMeta() };
          await c.send('POST', c.modernHeaders('server/discover'), { jsonrpc: '2.0', id: 1, method: 'server/discover', params: meta });
          await c.send('POST', c.modernHeaders('tools/list'), { jsonrpc: '2.0', id: 2, method: 'tools/list', params: meta });
          await c.send('POST', c.modernHeaders('tools/call', c.tools.plain.name), c.callBody(3, 0, true));
        } else {
          const s = await c.openSession();
          if (s) {
            const headers = c.legacyHeaders(s.sessionId, s.version);
            await c.send('POST', headers, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
            await c.send('POST', headers, c.callBody(3, 0, false));
            await c.send('POST', headers, ping(4));
          }
        }
        const source = `against ${schemaSource(revision)}`;
        if (c.checked === 0) return checkOf(id, { verdict: 'not tested', evidence: 'no message was received' });
        return c.malformed.length
          ? checkOf(id, {
              verdict: 'violates',
              evidence: `${c.malformed.length} of ${c.checked} messages malformed ${source}: ${c.malformed.slice(0, 3).join('; ')}`,
            })
          : checkOf(id, {
              verdict: 'conforms',
              evidence: `${c.checked} messages (initialize or discover, tools/list, tools/call, ping) valid ${source}`,
            });
      }),
    );
  return specOnly(checks);
}

export const TRANSPORT_PROBES: readonly TransportProbe[] = [
  {
    name: 'invalid-protocol-version',
    asks: 'a request whose MCP-Protocol-Version is unsupported or no version gets 400 (2025-11-25)',
    revisions: [LEGACY],
    run: invalidProtocolVersion,
  },
  {
    name: 'foreign-origin',
    asks: 'a request from a foreign Origin (http://evil.example.com) gets 403',
    revisions: [LEGACY, MODERN],
    run: foreignOrigin,
  },
  {
    name: 'post-notification-202',
    asks: 'a POSTed notification (or response) the server accepts gets 202 with no body',
    revisions: [LEGACY, MODERN],
    run: postNotification,
  },
  {
    name: 'delete-then-request',
    asks: 'a request on a session the client DELETEd gets 404 (2025-11-25)',
    revisions: [LEGACY],
    run: deleteThenRequest,
  },
  {
    name: 'made-up-session',
    asks: 'a request with a session id the server never issued gets 404 (2025-11-25, servers that issue sessions)',
    revisions: [LEGACY],
    run: madeUpSession,
  },
  {
    name: 'id-reused-in-flight',
    asks: 'two tools/calls in flight under one id in one session: no caller gets the other’s answer (2025-11-25)',
    revisions: [LEGACY],
    run: idReusedInFlight,
  },
  {
    name: 'message-schema',
    asks: 'every message received follows the revision’s schema (the official SDKs’ types)',
    revisions: [LEGACY, MODERN],
    run: messageSchema,
  },
];

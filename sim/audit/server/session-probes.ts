// The session probes of issue 37 item 6 (2025-11-25, servers that issue sessions): a request on a
// session the client DELETEd, or with an id the server never issued, gets 404; and two tools/calls in
// flight under one JSON-RPC id in one session never get each other's answers (the client breaks its
// own MUST NOT there, so the server's reaction is otherwise open; each call is waited for 5 s at most).
// A stateless server issues no session: the first two are `not tested`, with why; the third still
// judges each answer's id, on two requests of no session (test/sim/audit/server/stateless-session-probes.test.ts).
import type { AuditVerdict } from '../../core/audit-verdict.ts';
import type { WireServerSpec } from '../../wire/setup.ts';
import { withinRealMs } from '../../wire/protocol/real-timers.ts';
import { describeAnswer, type ProbeAnswer } from './probe-client.ts';
import { specOnly, withClient, type TransportProbe } from './probe-kit.ts';
import { checkOf } from './spec-lens.ts';

const LEGACY = '2025-11-25';
const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });

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
    // A stateless server (no session id) takes the two calls as two requests of no session: the id
    // still names each one's answer, but the client breaks no MUST NOT of its own.
    const asked = s.sessionId
      ? "one session, tools/call id 9 twice in flight (the client breaks its own MUST NOT; the server's reaction is open)"
      : 'no session (the server issued no session id), tools/call id 9 twice in flight, one POST each';
    // A server may never answer one of the two (the SDK v1 transport maps a stream by request id): bounded.
    const bounded = (p: Promise<ProbeAnswer>) => withinRealMs(p, REUSE_WAIT_MS, null);
    const both = await Promise.all([
      bounded(c.send('POST', headers, c.callBody(9, 1, false))),
      bounded(c.send('POST', headers, c.callBody(9, 2, false))),
    ]);
    const silent = both.filter((a) => a === null).length;
    if (silent) {
      const evidence = `${asked}: ${silent} of the 2 calls got no answer within ${REUSE_WAIT_MS / 1000} s, and no caller got the other's`;
      return specOnly([checkOf(id, { verdict: 'conforms', evidence })]);
    }
    const alone = [await c.send('POST', headers, c.callBody(11, 1, false)), await c.send('POST', headers, c.callBody(12, 2, false))];
    const evidence = `${asked}: ${both.map((a, i) => `caller ${i + 1} ${describeAnswer(a!)}`).join('; ')}`;
    if (alone.some((a) => !a.message?.result) || textOf(alone[0]!) === textOf(alone[1]!))
      return specOnly([
        checkOf(id, {
          verdict: 'not tested',
          evidence: `${evidence}: the tool's answers to the two calls cannot be told apart (a --call tool gets its one --args in both calls; a tool whose answer echoes a per-call argument, as the --tools presets' do, tells them apart; two-callers-one-id asks under one id with two methods instead)`,
        }),
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

export const SESSION_PROBES: readonly TransportProbe[] = [
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
];

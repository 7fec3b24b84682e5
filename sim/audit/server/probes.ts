// The audit's probe scenarios: questions a fault plan cannot ask, because the model client never
// sends the request (a GET on the endpoint, server/discover, a mismatched MCP-Protocol-Version) or
// because it takes two clients at once (two callers, one JSON-RPC id), or because it closes a
// response stream on purpose and then looks at what the tool left behind (close-cancels). Each asks
// the server directly (probe-client.ts), judges the requirements it observes (spec lens), and gives a
// resilience verdict only where the agent would live with the outcome (two callers: a wrong answer is
// silent). close-cancels waits on the wall clock for the server's own tool (bounded: 10 s at most).
// Why one file: not yet split after issue 37's merge (350 lines): the probe list and the two-callers and
// close-cancels probes belong in files of their own, as the transport probes already are.
import type { Revision } from '../../../models/policies.ts';
import type { SpecCheck } from '../../core/audit-verdict.ts';
import { specVerdictOf, type AuditVerdict } from '../../core/audit-verdict.ts';
import type { WireServerSpec } from '../../wire/setup.ts';
import { realSleep } from '../../wire/protocol/virtual-time.ts';
import { WallTime } from '../../wire/protocol/wall-time.ts';
import { describeAnswer, MODERN, modernMeta, ProbeClient, type ProbeAnswer } from './probe-client.ts';
import { checkOf } from './spec-lens.ts';
import type { ToolChoice } from './tool-choice.ts';
import type { ToolSpec } from '../../wire/protocol/json-rpc.ts';
import type { ScenarioResult } from '../audit-row.ts';
import { TRANSPORT_PROBES } from './transport-probes.ts';
import { AUTH_PROBE } from './auth-probe.ts';

export interface ProbeOutcome {
  verdict: AuditVerdict;
  why: string;
  evidence: string;
  checks: SpecCheck[];
}

export interface Probe {
  name: string;
  asks: string;
  revisions: readonly Revision[];
  run(server: WireServerSpec, revisions: readonly Revision[], tools?: ToolChoice): Promise<ProbeOutcome>;
}

const SPEC_ONLY = 'a spec probe (no fault): the spec lens judges it';
const LEGACY = '2025-11-25';

async function withClient<T>(server: WireServerSpec, f: (c: ProbeClient) => Promise<T>): Promise<T> {
  const c = new ProbeClient(server);
  try {
    return await f(c);
  } finally {
    await c.close();
  }
}

function specOnly(checks: SpecCheck[]): ProbeOutcome {
  return { verdict: 'not applicable', why: SPEC_ONLY, evidence: checks.map((c) => c.evidence).join('; '), checks };
}

async function get405(server: WireServerSpec, revisions: readonly Revision[]): Promise<ProbeOutcome> {
  const checks: SpecCheck[] = [];
  if (revisions.includes(LEGACY))
    checks.push(
      await withClient(server, async (c) => {
        const s = await c.openSession();
        if (!s) return checkOf('2025-11-25/get-sse-or-405', { verdict: 'not tested', evidence: 'initialize was refused' });
        const a = await c.send('GET', { ...c.legacyHeaders(s.sessionId, s.version), accept: 'text/event-stream' });
        const what = `GET on the endpoint in a live session: ${describeAnswer(a)}`;
        const sse = (a.contentType ?? '').startsWith('text/event-stream');
        return checkOf('2025-11-25/get-sse-or-405', {
          verdict: a.status === 405 || (a.status === 200 && sse) ? 'conforms' : 'violates',
          evidence: a.status === 405 ? `${what} (no standalone stream offered)` : sse ? `${what} (a standalone stream)` : what,
        });
      }),
    );
  // The 2026-07-28 SHOULD binds a server of that revision only (a dual server serves a legacy GET).
  if (revisions.length === 1 && revisions[0] === MODERN)
    checks.push(
      await withClient(server, async (c) => {
        const a = await c.send('GET', { accept: 'text/event-stream', 'mcp-protocol-version': MODERN });
        return checkOf('2026-07-28/get-405', {
          verdict: a.status === 405 ? 'conforms' : 'violates',
          evidence: `GET on the endpoint: ${describeAnswer(a)}`,
        });
      }),
    );
  return specOnly(checks);
}

async function serverDiscover(server: WireServerSpec): Promise<ProbeOutcome> {
  const check = await withClient(server, async (c) => {
    const a = await c.discover();
    const versions = a.message?.result?.supportedVersions;
    const what = `server/discover: ${describeAnswer(a)}`;
    return Array.isArray(versions)
      ? checkOf('2026-07-28/server-discover', { verdict: 'conforms', evidence: `${what}, supportedVersions ${versions.join(', ')}` })
      : checkOf('2026-07-28/server-discover', { verdict: 'violates', evidence: `${what}: no result listing supportedVersions` });
  });
  return specOnly([check]);
}

async function mismatchProtocolVersion(server: WireServerSpec): Promise<ProbeOutcome> {
  const check = await withClient(server, async (c) => {
    // The body says 2026-07-28; the header, as a proxy might rewrite it, says 2025-11-25.
    const a = await c.send(
      'POST',
      { ...c.modernHeaders('tools/list'), 'mcp-protocol-version': LEGACY },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } },
    );
    const what = `tools/list with _meta ${MODERN} and MCP-Protocol-Version ${LEGACY}: ${describeAnswer(a)}`;
    if (a.status === 400 && a.message?.error?.code === -32020)
      return checkOf('2026-07-28/protocol-version-mismatch-400', { verdict: 'conforms', evidence: what });
    return checkOf('2026-07-28/protocol-version-mismatch-400', {
      verdict: 'violates',
      evidence: `${what}: not 400 with -32020 HeaderMismatch`,
    });
  });
  return specOnly([check]);
}

const text = (a: ProbeAnswer) => JSON.stringify(a.message?.result?.content ?? null);

/** What each of the two callers asks under the one id, and how its own answer is told from the other's
 *  whatever the tool answers: a tools/call's result has `content`, a tools/list's has `tools`. */
const ASKED = [
  { rpc: 'tools/call', own: (r: Record<string, unknown>) => Array.isArray(r.content) && !('tools' in r) },
  { rpc: 'tools/list', own: (r: Record<string, unknown>) => Array.isArray(r.tools) && !('content' in r) },
] as const;

/** A row of two callers: its verdict, its spec check, and the evidence line. */
type Callers = { verdict: AuditVerdict; check: SpecCheck; evidence: string };

/** How each caller's answer relates to what it asked. */
function answerOf(a: ProbeAnswer, i: number): 'own' | 'other' | 'wrong id' | 'failed' {
  if (a.message && a.message.id !== SHARED_ID) return 'wrong id';
  const r = a.message?.result;
  if (!r) return 'failed';
  return ASKED[i]!.own(r) ? 'own' : 'other';
}

const SHARED_ID = 7;
/** Real ms between the slow call's start and the second caller's request: the second lands while the first runs. */
const SECOND_AFTER_MS = 50;

/**
 * Two callers, one JSON-RPC id, in one revision (two sessions in 2025-11-25; two requests in
 * 2026-07-28): caller 1 a tools/call (of the slow tool where `--slow-call` names one, so that it is
 * still running), caller 2 a tools/list, both in flight together. Each answer is compared with what
 * its own caller asked; the evidence says whether the two overlapped on the wall clock.
 */
async function twoCallers(c: ProbeClient, modern: boolean, slow: ToolSpec | null): Promise<Callers> {
  const id = modern ? '2026-07-28/own-answer-per-request' : '2025-11-25/own-answer-per-request';
  const opened = modern ? [null, null] : [await c.openSession(), await c.openSession()];
  if (!modern && opened.some((s) => s === null)) {
    const evidence = 'initialize was refused in a fault-free run';
    return { verdict: 'broken without faults', check: checkOf(id, { verdict: 'not tested', evidence }), evidence };
  }
  const tool = slow ?? c.tools.plain;
  const headers = (i: number) =>
    modern ? c.modernHeaders(ASKED[i]!.rpc, i === 0 ? tool.name : undefined) : c.legacyHeaders(opened[i]!.sessionId, opened[i]!.version);
  const listBody = { jsonrpc: '2.0', id: SHARED_ID, method: 'tools/list', params: modern ? { _meta: modernMeta() } : {} };
  // Order, not times: whether caller 1 was still unanswered when caller 2 was sent (no clock in a report).
  let firstAnswered = false;
  const first = c.send('POST', headers(0), c.callBody(SHARED_ID, 1, modern, tool)).finally(() => (firstAnswered = true));
  if (slow) await realSleep(SECOND_AFTER_MS);
  const overlapped = !firstAnswered;
  const both = await Promise.all([first, c.send('POST', headers(1), listBody)]);
  const seen = both.map(answerOf);
  const overlap = overlapped
    ? 'in flight together (caller 2 was sent before caller 1 was answered)'
    : 'not in flight together: caller 1 was answered before caller 2 was sent (its tool is faster than 50 ms: name a slower one with --slow-call)';
  const where = modern ? 'two 2026-07-28 requests' : 'two sessions';
  const what = ['its own tools/call result', 'its own tools/list result'];
  const said = (i: number) =>
    `caller ${i + 1} (${ASKED[i]!.rpc}${i === 0 ? ` ${tool.name}` : ''}) ${describeAnswer(both[i]!)} ${seen[i] === 'own' ? what[i] : seen[i] === 'other' ? "the other caller's answer" : seen[i] === 'wrong id' ? `id ${JSON.stringify(both[i]!.message?.id)}` : 'no result'}`;
  const evidence = `${where}, id ${SHARED_ID} on each: ${said(0)}; ${said(1)}; ${overlap}`;
  if (seen.includes('other') || seen.includes('wrong id'))
    return { verdict: 'silent', check: checkOf(id, { verdict: 'violates', evidence }), evidence };
  if (seen.includes('failed')) return { verdict: 'loud', check: checkOf(id, { verdict: 'conforms', evidence }), evidence };
  return { verdict: 'pass', check: checkOf(id, { verdict: 'conforms', evidence }), evidence };
}

async function twoCallersOneId(server: WireServerSpec, revisions: readonly Revision[], tools?: ToolChoice): Promise<ProbeOutcome> {
  const runs: Callers[] = [];
  const slow = tools?.slow?.tool ?? null;
  if (revisions.includes(LEGACY)) runs.push(await withClient(server, (c) => twoCallers(c, false, slow)));
  if (revisions.includes(MODERN)) runs.push(await withClient(server, (c) => twoCallers(c, true, slow)));
  const order: AuditVerdict[] = ['silent', 'stuck', 'loud', 'broken without faults', 'pass'];
  const verdict = order.find((v) => runs.some((r) => r.verdict === v)) ?? 'not tested';
  const why =
    verdict === 'silent'
      ? 'a caller got an answer that is not the answer to what it asked, without an error'
      : verdict === 'loud'
        ? 'a call failed loudly while the other was in flight under the same id'
        : verdict === 'broken without faults'
          ? 'a session could not be opened in a fault-free run'
          : 'each caller got the answer to what it asked';
  return { verdict, why, evidence: runs.map((r) => r.evidence).join(' | '), checks: runs.map((r) => r.check) };
}

/** How long close-cancels waits for a closed call's work to land: twice a whole call's time, within these bounds (ms). */
const CLOSE_WAIT = { min: 200, max: 10_000 };

/**
 * close-cancels (2026-07-28): a call of the slow tool (`--slow-call`) whose SSE response stream the
 * client closes as soon as its head arrives must be cancelled, so its work never lands. Seen through
 * the read-only tool's answer: it must change after a call run to its end (the effect is visible),
 * must not have changed at the close (else the tool is faster than a close and nothing is tested),
 * and must not change while the closed call would have finished.
 */
async function closeCancels(server: WireServerSpec, _revisions: readonly Revision[], tools?: ToolChoice): Promise<ProbeOutcome> {
  const id = '2026-07-28/close-is-cancellation';
  const untested = (evidence: string, verdict: AuditVerdict = 'not tested') => ({
    ...specOnly([checkOf(id, { verdict: 'not tested', evidence })]),
    verdict,
    why: verdict === 'not tested' ? evidence : `the fault-free calls already fail: ${evidence}`,
  });
  const slow = tools?.slow;
  if (!slow)
    return untested(
      'needs a slow tool with a visible effect: name it with --slow-call NAME --args JSON (its effect must show in the answer of the read-only --call tool)',
    );
  return withClient(server, async (c) => {
    let n = 1;
    const headers = (name: string) => c.modernHeaders('tools/call', name);
    const body = () => c.callBody(n++, 1, true, slow.tool);
    const read = async () => {
      const a = await c.send('POST', headers(slow.read.name), c.callBody(n++, 1, true, slow.read));
      return a.message?.result ? text(a) : null;
    };
    const before = await read();
    if (before === null) return untested(`the read-back tool ${slow.read.name} got no result`, 'broken without faults');
    const clock = new WallTime();
    const whole = await c.send('POST', headers(slow.tool.name), body());
    const took = clock.now;
    if (!whole.message?.result)
      return untested(`a call of ${slow.tool.name} run to its end got no result: ${describeAnswer(whole)}`, 'broken without faults');
    const after = await read();
    if (after === before)
      return untested(
        `a call of ${slow.tool.name} run to its end leaves ${slow.read.name}'s answer as it was (${after}): its effect is not visible (name a --slow-call tool whose effect the --call tool shows)`,
      );
    const started = clock.now;
    const head = await c.sendAndClose(headers(slow.tool.name), body());
    // A head that came only with the result (the server holds it until then): a close after it is too late.
    const held = clock.now - started >= 0.8 * took;
    const answered = describeAnswer({ ...head, message: null });
    if (head.status !== 200 || !(head.contentType ?? '').startsWith('text/event-stream'))
      return untested(`${slow.tool.name} was answered ${answered}: no SSE response stream to close`);
    const atClose = await read();
    if (atClose === after)
      return judgeClose(id, atClose, took, read, `a ${slow.tool.name} call's stream (${answered}) closed as its head arrived`);
    if (!held)
      return untested(
        `${slow.read.name} already showed the closed call's effect right after the close (${atClose}): the tool finishes before a close reaches it; name a slower one`,
      );
    // The head was held until the result: close the next call before its head, halfway through a whole call's time.
    await c.sendAndAbort(headers(slow.tool.name), body(), Math.max(1, Math.round(took / 2)));
    const atAbort = await read();
    if (atAbort !== atClose)
      return untested(
        `the server holds the response head until the result, and ${slow.read.name} showed the call's effect right after a close before the head (${atAbort}): the tool finishes before a close reaches it; name a slower one`,
      );
    return judgeClose(
      id,
      atAbort,
      took,
      read,
      `the server holds the head until the result: a ${slow.tool.name} call closed before its head, halfway through a whole call's time`,
    );
  });
}

/** After a close: wait twice a whole call's time, and see whether the closed call's work landed. */
async function judgeClose(
  id: string,
  atClose: string | null,
  took: number,
  read: () => Promise<string | null>,
  closed: string,
): Promise<ProbeOutcome> {
  await realSleep(Math.min(CLOSE_WAIT.max, Math.max(CLOSE_WAIT.min, 2 * took)));
  const later = await read();
  const what = `${closed}; the read-back answered ${atClose} at the close and ${later} after twice a whole call's time`;
  return specOnly([
    later === atClose
      ? checkOf(id, { verdict: 'conforms', evidence: `${what}: the closed call's work did not land` })
      : checkOf(id, { verdict: 'violates', evidence: `${what}: the work of the closed request landed after the close` }),
  ]);
}

export const PROBES: readonly Probe[] = [
  {
    name: 'get-405',
    asks: 'a GET on the endpoint gets an SSE stream or 405 (2025-11-25); 405 from a server of 2026-07-28 only',
    revisions: ['2025-11-25', '2026-07-28'],
    run: get405,
  },
  {
    name: 'server-discover',
    asks: 'server/discover is answered with the revisions the server speaks (2026-07-28: servers MUST implement it)',
    revisions: ['2026-07-28'],
    run: serverDiscover,
  },
  {
    name: 'mismatch-protocol-version',
    asks: 'a request whose MCP-Protocol-Version does not match its _meta is refused: 400, JSON-RPC -32020',
    revisions: ['2026-07-28'],
    run: mismatchProtocolVersion,
  },
  {
    name: 'two-callers-one-id',
    asks: 'two callers with a tools/call in flight under the same JSON-RPC id each get their own answer, never the other’s',
    revisions: ['2025-11-25', '2026-07-28'],
    run: twoCallersOneId,
  },
  {
    name: 'close-cancels',
    asks: 'a tools/call whose response stream the client closed is cancelled: its work does not land (2026-07-28, with --slow-call)',
    revisions: ['2026-07-28'],
    run: closeCancels,
  },
  ...TRANSPORT_PROBES,
  AUTH_PROBE,
];

export async function runProbe(
  p: Probe,
  server: WireServerSpec,
  revisions: readonly Revision[],
  serverArgs: string,
  tools?: ToolChoice,
): Promise<ScenarioResult> {
  const base = {
    name: p.name,
    asks: p.asks,
    plan: '(no faults: a probe)',
    judgedBy: ['the spec lens'],
    reproduce: { audit: `mcp-faultsim audit ${serverArgs} --only ${p.name}`, check: '' },
  };
  if (!p.revisions.some((r) => revisions.includes(r))) {
    const why = `the server speaks ${revisions.join(', ')}; the probe is for ${p.revisions.join(', ')}`;
    return { ...base, verdict: 'not applicable', why, evidence: why, spec: { verdict: 'not tested', checks: [] } };
  }
  const out = await p.run(server, revisions, tools);
  return {
    ...base,
    verdict: out.verdict,
    why: out.why,
    evidence: out.evidence,
    spec: { verdict: specVerdictOf(out.checks), checks: out.checks },
  };
}

// The two-callers-one-id probe (issue 37 item 4): two callers send requests under one JSON-RPC id
// at once (two sessions in 2025-11-25, two requests in 2026-07-28), and each answer is compared with
// what its own caller asked. Its own file because deciding it takes a shape of its own: the two
// callers ask different methods (a tools/call, a tools/list) so their answers are told apart whatever
// the tool answers, and they are kept in flight together (the slow tool where --slow-call names one),
// which probes.ts's one-request questions never need.
import type { Revision } from '../../../models/policies.ts';
import type { AuditVerdict, SpecCheck } from '../../core/audit-verdict.ts';
import type { WireServerSpec } from '../../wire/setup.ts';
import type { ToolSpec } from '../../wire/protocol/tool-maps.ts';
import { realSleep } from '../../wire/protocol/real-timers.ts';
import { describeAnswer, MODERN, modernMeta, type ProbeAnswer, type ProbeClient } from './probe-client.ts';
import { withClient, type ProbeOutcome } from './probe-kit.ts';
import { checkOf } from './spec-lens.ts';
import type { ToolChoice } from './tool-choice.ts';

const LEGACY = '2025-11-25';

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

export async function twoCallersOneId(server: WireServerSpec, revisions: readonly Revision[], tools?: ToolChoice): Promise<ProbeOutcome> {
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

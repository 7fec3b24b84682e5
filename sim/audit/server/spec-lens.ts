// The spec lens over a fault scenario's run: each requirement the scenario observes
// (requirements.ts, `observed.scenarios`) judged from the history alone — the statuses, session ids
// and JSON-RPC error codes the network saw — into conforms / violates / not tested, or
// `optional, not implemented` / `unspecified` where the spec makes the behaviour optional or leaves
// it open. The probes (probes.ts) judge their own requirements with `checkOf` too.
import type { History, HistoryEntry } from '../../core/history.ts';
import type { Revision } from '../../../models/policies.ts';
import type { SpecCheck, SpecVerdict } from '../../core/audit-verdict.ts';
import { quoteOf, requirementById, requirementsOf, requirementUrl } from '../requirements.ts';
import { faultedResponse } from '../verdict.ts';

type Response = Extract<HistoryEntry, { kind: 'response' }>;
type Request = Extract<HistoryEntry, { kind: 'request' }>;
export interface Judged {
  verdict: SpecVerdict;
  evidence: string;
}

/** A requirement's check, its quote and link filled in from the one place requirements live. A MAY (or a
 *  behaviour the spec leaves open) is never violated: a judge that says so reads as what it is. */
export function checkOf(id: string, j: Judged): SpecCheck {
  const r = requirementById(id);
  if (!r) throw new Error(`internal: no requirement '${id}'`);
  const lenient = r.level === 'MAY' ? 'optional, not implemented' : r.level === 'unspecified' ? 'unspecified' : null;
  const verdict = j.verdict === 'violates' && lenient ? lenient : j.verdict;
  return { requirement: id, level: r.level, quote: quoteOf(r), url: requirementUrl(r), ...j, verdict };
}

const responseTo = (h: History, req: number) => h.entries.find((e): e is Response => e.kind === 'response' && e.req === req);
const requests = (h: History) => h.entries.filter((e): e is Request => e.kind === 'request');
const shortId = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);

/** `HTTP 400 (JSON-RPC -32000) application/json`: what a response was, in a phrase. */
export function answered(r: Response | undefined): string {
  if (!r) return 'no answer';
  // A body its Content-Type misnames is said as what it is (`HTTP 404: JSON (JSON-RPC -32001) sent without a Content-Type`).
  if (r.content !== undefined) return `HTTP ${r.status}: ${r.content}${r.from === 'load-balancer' ? ' from the load balancer' : ''}`;
  const code = r.rpcError !== undefined ? ` (JSON-RPC ${r.rpcError})` : '';
  return `HTTP ${r.status}${code}${r.contentType ? ` ${r.contentType.split(';')[0]}` : ''}${r.from === 'load-balancer' ? ' from the load balancer' : ''}`;
}

function firstFault(h: History) {
  const f = h.entries.find((e) => e.kind === 'fault' && e.applied);
  return f?.kind === 'fault' ? f : undefined;
}

/** After session-expire / server-restart: the first request carrying a session the server lost, and its answer. */
function unknownSession404(h: History): Judged {
  const fault = firstFault(h);
  if (!fault) return { verdict: 'not tested', evidence: 'the fault did not act: no session was forgotten' };
  const all = requests(h);
  const atFault = all.find((r) => r.req === fault.at);
  const lost = new Set<string>();
  if (fault.fault === 'session-expire') {
    const id = atFault?.headers['mcp-session-id'];
    if (id) lost.add(id);
  } else
    for (const e of h.entries)
      if (e.kind === 'response' && e.req < fault.at && e.sessionId) lost.add(e.sessionId);
      else if (e.kind === 'request' && e.req < fault.at && e.headers['mcp-session-id']) lost.add(e.headers['mcp-session-id']);
  if (lost.size === 0) return { verdict: 'not tested', evidence: 'the server issued no session id: it keeps no sessions to lose' };
  const probe = all.find((r) => r.req >= fault.at && lost.has(r.headers['mcp-session-id'] ?? ''));
  if (!probe) return { verdict: 'not tested', evidence: 'no request carried the lost session id after the fault' };
  const res = responseTo(h, probe.req);
  const what = `${answered(res)} to ${probe.rpc} (req ${probe.req}) on session ${shortId(probe.headers['mcp-session-id']!)}, which the server no longer knows`;
  return res?.status === 404 ? { verdict: 'conforms', evidence: what } : { verdict: 'violates', evidence: `${what}: not 404` };
}

function missingSessionId400(h: History): Judged {
  const r = faultedResponse(h);
  if (!r) return { verdict: 'not tested', evidence: 'the header was not stripped (the fault did not act)' };
  const what = `${answered(r)} to a tools/call without Mcp-Session-Id`;
  if (r.status === 400) return { verdict: 'conforms', evidence: what };
  if (r.status >= 200 && r.status < 300)
    return { verdict: 'not tested', evidence: `${what}: the server served it, so it does not require a session id` };
  return { verdict: 'violates', evidence: `${what}: not 400` };
}

function requestContentType(h: History): Judged {
  const r = faultedResponse(h);
  if (!r) return { verdict: 'not tested', evidence: 'the header was not stripped (the fault did not act)' };
  const what = `${answered(r)} to a tools/call without Accept`;
  if (r.status === 406) return { verdict: 'conforms', evidence: `${what}: refused as Not Acceptable` };
  if (r.status >= 400 && r.status < 500)
    return { verdict: 'conforms', evidence: `${what}: refused (the spec names no status for a request that breaks the client's MUST)` };
  if (r.body === 'json' || r.body === 'sse') return { verdict: 'conforms', evidence: `${what}: answered anyway, in one of the two types` };
  return { verdict: 'violates', evidence: `${what}: neither a refusal nor an answer as application/json or text/event-stream` };
}

function reinitLiveSession(h: History): Judged {
  const opened = new Set<string>();
  for (const r of requests(h)) {
    const id = r.headers['mcp-session-id'];
    if (r.rpc === 'initialize' && id && opened.has(id)) {
      const res = responseTo(h, r.req);
      const how =
        res?.status === 200
          ? res.sessionId && res.sessionId !== id
            ? `answered with a new session id ${shortId(res.sessionId)}`
            : 'answered and kept the session'
          : 'refused it';
      return { verdict: 'unspecified', evidence: `a second initialize on live session ${shortId(id)}: ${answered(res)}, ${how}` };
    }
    const res = responseTo(h, r.req);
    if (res?.sessionId) opened.add(res.sessionId);
  }
  return { verdict: 'not tested', evidence: 'the client sent no second initialize on a live session' };
}

function resumableStream(h: History): Judged {
  const fault = firstFault(h);
  if (!fault) return { verdict: 'not tested', evidence: 'no stream was cut (the server answered without one)' };
  const resume = requests(h).find((r) => r.rpc === 'resume' && r.req > fault.at);
  if (!resume) return { verdict: 'optional, not implemented', evidence: 'the cut stream carried no event id: no resumption offered' };
  const res = responseTo(h, resume.req);
  const what = `GET with Last-Event-ID (req ${resume.req}): ${answered(res)}`;
  return res?.status === 200 && res.body === 'sse'
    ? { verdict: 'conforms', evidence: `${what}: the stream resumed` }
    : { verdict: 'optional, not implemented', evidence: `event ids offered, but ${what}` };
}

function protocolVersionMissing(h: History, revisions: readonly Revision[]): Judged {
  const r = faultedResponse(h);
  if (!r) return { verdict: 'not tested', evidence: 'the header was not stripped (the fault did not act)' };
  const what = `${answered(r)} to a request without MCP-Protocol-Version`;
  if (r.status === 400 && r.rpcError === -32020) return { verdict: 'conforms', evidence: what };
  // The MUST binds a server that serves no client older than 2025-06-18; one that also speaks 2025-11-25
  // MAY take a request without the header for 2025-03-26: served or refused as such, it is that reading.
  if (revisions.includes('2025-11-25') && r.status >= 200 && r.status < 500)
    return {
      verdict: 'not tested',
      evidence: `${what}: ${r.status < 300 ? 'served' : 'refused'} as a legacy request, which a server that also serves earlier revisions MAY do (the MUST binds servers that do not)`,
    };
  if (r.status === 400) return { verdict: 'violates', evidence: `${what}: 400, but not the JSON-RPC error -32020 HeaderMismatch` };
  return { verdict: 'violates', evidence: `${what}: not 400 with -32020` };
}

/** The judges of the requirements a fault scenario's history shows. */
const FROM_HISTORY: Readonly<Record<string, (h: History, revisions: readonly Revision[]) => Judged>> = {
  '2025-11-25/unknown-session-404': unknownSession404,
  '2025-11-25/missing-session-id-400': missingSessionId400,
  '2025-11-25/request-content-type': requestContentType,
  '2025-11-25/reinit-live-session': reinitLiveSession,
  '2025-11-25/resumable-stream': resumableStream,
  '2026-07-28/protocol-version-missing-400': protocolVersionMissing,
};

/** The spec checks of one fault scenario's run (the forgiving model client's: it reaches the most). */
export function lensOfRun(scenario: string, h: History, revisions: readonly Revision[]): SpecCheck[] {
  return requirementsOf(scenario)
    .filter((r) => FROM_HISTORY[r.id])
    .map((r) => checkOf(r.id, FROM_HISTORY[r.id]!(h, revisions)));
}

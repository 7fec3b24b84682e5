// What the client library did on its own under a scenario's faults: the run with the agent loop
// switched off (cmd-client.ts: each call tried once, never reconnected), read from its history.
// Two things come out: the library's behaviour on the faulted call (recovered by itself, re-issued,
// surfaced an error at once, surfaced an error only at its own timeout, never settled, or a silent
// empty result), and the spec marks: each client requirement (requirements.ts) the run reached,
// met or broken, with the history's evidence. A call that never settles is a hang, never a pass.
import type { History, HistoryEntry } from '../core/history.ts';
import type { Revision } from '../../models/policies.ts';
import type { Judgement } from '../../properties/judge.ts';
import { requirementById, type RequirementLevel } from './requirements.ts';
import { passes, type AuditVerdict } from '../core/audit-verdict.ts';

export const LIBRARY_BEHAVIOURS = [
  'recovered',
  're-issued',
  'error at once',
  'error at its timeout',
  'never settled',
  'silent empty',
] as const;
export type LibraryBehaviour = (typeof LIBRARY_BEHAVIOURS)[number];

export interface SpecMark {
  /** A requirement id of requirements.ts. */
  requirement: string;
  level: RequirementLevel;
  status: 'met' | 'broken' | 'not reached';
  /** The history's evidence, one line. */
  detail: string;
}

export interface LibraryVerdict {
  behaviour: LibraryBehaviour;
  /** The row's library verdict, in the audit's vocabulary (audit-verdict.ts), printed beside the
   *  agent's and counted by the exit rule like it: never settled (a hang), silent (a silent empty
   *  result), stuck (later calls fail too: stuck on its own), loud (the error came only at its own
   *  timeout on a fault that was no delay, or a MUST broken while later calls work), else pass. */
  verdict: AuditVerdict;
  /** passes(verdict). */
  passed: boolean;
  why: string;
  marks: SpecMark[];
}

export interface LibraryContext {
  scenario: string;
  /** The revision the harness spoke in the run. */
  revision: Revision;
  /** The request timeout in force, real ms: the one the harness was given, else the library's declared
   *  default (null: none, or none declared). An error that late after a fault is `error at its timeout`. */
  timeoutMs: number | null;
  /** The library's declared default request timeout, as the evidence prints it (`60000 ms`, `none`). */
  declaredTimeout?: string;
  /** The server sends SSE event ids (it could resume a stream): the Last-Event-ID SHOULD applies. */
  offersEventIds: boolean;
}

type Request = Extract<HistoryEntry, { kind: 'request' }>;
type End = Extract<HistoryEntry, { kind: 'end' }>;
type Response = Extract<HistoryEntry, { kind: 'response' }>;
const requestsOf = (h: History) => h.entries.filter((e): e is Request => e.kind === 'request');
const label = (r: Request) => `req ${r.req} ${r.rpc}${r.id !== undefined ? ` id ${JSON.stringify(r.id)}` : ''}`;

function mark(requirement: string, status: SpecMark['status'], detail: string): SpecMark {
  const r = requirementById(requirement);
  if (!r) throw new Error(`no requirement '${requirement}' in requirements.ts`);
  return { requirement, level: r.level, status, detail };
}

/** Requests that fail a header check, as one mark (not reached when there was no request to check). */
function everyRequest(id: string, checked: readonly Request[], ok: (r: Request) => boolean, what: string): SpecMark {
  if (!checked.length) return mark(id, 'not reached', 'no request to check');
  const bad = checked.filter((r) => !ok(r));
  if (!bad.length) return mark(id, 'met', `${checked.length} of ${checked.length} requests ${what}`);
  return mark(id, 'broken', `${bad.length} of ${checked.length} requests lack it: ${bad.slice(0, 3).map(label).join(', ')}`);
}

/** The header duties every run of a revision is checked for (on what the client sent, before any fault). */
function headerMarks(h: History, revision: Revision): SpecMark[] {
  const all = requestsOf(h);
  const has = (name: string) => (r: Request) => r.headers[name] !== undefined && r.headers[name] !== '';
  if (revision === '2026-07-28') {
    const posts = all.filter((r) => r.method === 'POST');
    return [everyRequest('2026-07-28/client-protocol-version-header', posts, has('mcp-protocol-version'), 'carry it')];
  }
  const first = all.findIndex((r) => r.rpc === 'initialize');
  const after = first < 0 ? [] : all.slice(first + 1).filter((r) => r.rpc !== 'initialize');
  const accepts = (r: Request) => /application\/json/.test(r.headers.accept ?? '') && /text\/event-stream/.test(r.headers.accept ?? '');
  return [
    everyRequest('2025-11-25/client-protocol-version-header', after, has('mcp-protocol-version'), 'carry it'),
    everyRequest('2025-11-25/client-session-id-on-requests', after, has('mcp-session-id'), 'carry it'),
    everyRequest(
      '2025-11-25/client-accept-both',
      all.filter((r) => r.method === 'POST'),
      accepts,
      'list both types',
    ),
  ];
}

function newSessionMark(h: History): SpecMark {
  const id = '2025-11-25/client-new-session-after-404';
  const all = requestsOf(h);
  const gone = h.entries.find(
    (e): e is Response => e.kind === 'response' && e.status === 404 && all.some((r) => r.req === e.req && r.headers['mcp-session-id']),
  );
  if (!gone) return mark(id, 'not reached', 'no 404 to a request with a session id');
  const later = all.filter((r) => r.req > gone.req);
  const init = later.find((r) => r.rpc === 'initialize' && !r.headers['mcp-session-id']);
  if (init) return mark(id, 'met', `404 on req ${gone.req}; a new initialize without a session id on req ${init.req}`);
  const dead = later.filter((r) => r.headers['mcp-session-id']).length;
  const sent = later.length
    ? `${later.length} later request(s), ${dead} with the dead session id, none an initialize`
    : 'no request after it';
  return mark(id, 'broken', `404 on req ${gone.req}; ${sent}`);
}

function cutRequest(h: History): Request | undefined {
  const cut = h.entries.find((e) => e.kind === 'fault' && e.applied && e.fault === 'stream-cut');
  return cut?.kind === 'fault' ? requestsOf(h).find((r) => r.req === cut.at) : undefined;
}

function reissueMark(h: History): SpecMark {
  const id = '2026-07-28/client-reissue-new-id';
  const cut = cutRequest(h);
  if (!cut) return mark(id, 'not reached', 'no response stream was cut');
  const again = requestsOf(h).filter((r) => r.req > cut.req && r.rpc === cut.rpc && r.callId === cut.callId);
  const fresh = again.find((r) => r.id !== cut.id);
  if (fresh) return mark(id, 'met', `cut ${label(cut)}; re-issued as ${label(fresh)}`);
  if (again.length) return mark(id, 'broken', `cut ${label(cut)}; re-sent under the same id (${label(again[0]!)})`);
  return mark(id, 'broken', `cut ${label(cut)}; never re-issued`);
}

function resumeMark(h: History, offers: boolean): SpecMark {
  const id = '2025-11-25/client-resume-last-event-id';
  const cut = cutRequest(h);
  if (!cut) return mark(id, 'not reached', 'no response stream was cut');
  if (!offers) return mark(id, 'not reached', 'the server sends no event ids: nothing to resume from');
  // The cut's own entry says how many events went through ("stream ended after N of M events").
  const cutFault = h.entries.find((e) => e.kind === 'fault' && e.applied && e.fault === 'stream-cut');
  const through = cutFault?.kind === 'fault' ? Number(/after (\d+) of/.exec(cutFault.detail)?.[1] ?? 0) : 0;
  if (!through) return mark(id, 'not reached', 'the cut stream delivered no event before the cut: no id to resume from');
  const resume = requestsOf(h).find((r) => r.req > cut.req && r.method === 'GET' && r.headers['last-event-id'] !== undefined);
  if (resume) return mark(id, 'met', `cut ${label(cut)}; GET with Last-Event-ID ${resume.headers['last-event-id']} on req ${resume.req}`);
  return mark(id, 'broken', `cut ${label(cut)}; no GET with Last-Event-ID followed`);
}

/** The requirement marks a scenario's library run is judged by (the header duties on every run). */
export function specMarks(h: History, c: LibraryContext): SpecMark[] {
  const marks: SpecMark[] = [];
  if (c.revision === '2025-11-25' && (c.scenario === 'unknown-session' || c.scenario === 'server-restart')) marks.push(newSessionMark(h));
  if (c.revision === '2026-07-28' && c.scenario === 'cut-reissue-once') marks.push(reissueMark(h));
  if (c.revision === '2025-11-25' && c.scenario === 'stream-cut-call') marks.push(resumeMark(h, c.offersEventIds));
  return [...marks, ...headerMarks(h, c.revision)];
}

/** The workload call the first applied fault acted on (0 when it acted on no call's request). */
function faultedCall(h: History): { callId: number; at: number; fault: string } | null {
  const fault = h.entries.find((e) => e.kind === 'fault' && e.applied);
  if (fault?.kind !== 'fault') return null;
  const req = requestsOf(h).find((r) => r.req === fault.at);
  return { callId: req?.callId ?? 0, at: fault.t, fault: fault.fault };
}

export function libraryVerdict(h: History, j: Judgement, c: LibraryContext): LibraryVerdict {
  const marks = specMarks(h, c);
  const hit = faultedCall(h) ?? { callId: 0, at: 0, fault: '' };
  const ends = h.entries.filter((e): e is End => e.kind === 'end');
  const end = ends.find((e) => e.callId === hit.callId);
  const outcome = j.outcomes.find((o) => o.callId === hit.callId)?.outcome;
  const after = (end?.t ?? hit.at) - hit.at;
  const tries = requestsOf(h).filter((r) => r.rpc === 'tools/call' && r.callId === hit.callId).length;
  let behaviour: LibraryBehaviour;
  if (!end || end.end === 'never') behaviour = 'never settled';
  else if (end.end === 'deadline') behaviour = 'error at its timeout';
  else if (end.end === 'error') behaviour = c.timeoutMs !== null && after >= c.timeoutMs - 100 ? 'error at its timeout' : 'error at once';
  else if (outcome === 'silent-empty') behaviour = 'silent empty';
  else behaviour = tries > 1 ? 're-issued' : 'recovered';

  const later = ends.filter((e) => e.callId > hit.callId);
  const failedLater = later.filter((e) => e.end !== 'result');
  const broken = marks.filter((m) => m.status === 'broken' && (m.level === 'MUST' || m.level === 'MUST NOT'));
  const waited = behaviour === 'error at its timeout' && !hit.fault.startsWith('delay:');
  const verdict: AuditVerdict =
    behaviour === 'never settled'
      ? 'never settled'
      : behaviour === 'silent empty'
        ? 'silent'
        : failedLater.length
          ? 'stuck'
          : waited || broken.length
            ? 'loud'
            : 'pass';
  const how =
    end && end.end === 'error'
      ? `call ${hit.callId}: ${behaviour} (${after} ms after the fault: ${end.reason.slice(0, 80)})`
      : end && end.end !== 'never'
        ? `call ${hit.callId}: ${behaviour}${end.end === 'deadline' ? ` (${after} ms after the fault)` : ''}${tries > 1 ? `, ${tries} tools/call requests` : ''}`
        : `call ${hit.callId}: never settled (no answer, no error, and no timeout of its own fired before the audit's bound ended the run; its declared default timeout: ${c.declaredTimeout ?? 'not declared'})`;
  const rest = later.length ? `; later calls: ${later.length - failedLater.length} of ${later.length} ok` : '';
  const must = broken.length ? `; breaks ${broken.map((m) => m.requirement).join(', ')}` : '';
  return { behaviour, verdict, passed: passes(verdict), why: `${how}${rest}${must}`, marks };
}

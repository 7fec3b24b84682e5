// One scenario's verdict from the oracles' judgement of its run, and the one line of evidence the
// history gives for it: what the server answered to the faulted request, and how each call ended.
import type { History, HistoryEntry } from '../core/history.ts';
import type { Judgement } from '../../properties/judge.ts';
import { familyOf } from '../../properties/fold.ts';
import { PROPERTIES } from '../../properties/properties.ts';
import type { Scenario } from './scenarios.ts';
import { UNREACHABLE } from '../wire/protocol/wire-headers.ts';

import type { AuditVerdict } from '../core/audit-verdict.ts';

export { passes, VERDICTS, type AuditVerdict } from '../core/audit-verdict.ts';

type Response = Extract<HistoryEntry, { kind: 'response' }>;

const PROPERTY_FAMILY = new Map(PROPERTIES.map((p) => [p.name as string, familyOf(p)]));

/** silent beats stuck beats loud: the worst thing the agent would live with decides. */
export function verdictOf(
  s: Pick<Scenario, 'judgedBy' | 'expectStatus'>,
  j: Judgement,
  h: History,
): { verdict: AuditVerdict; why: string } {
  const violated = s.judgedBy.filter((p) => j.verdicts[p] && !j.verdicts[p].holds);
  // A violated property the agent is not told about makes the run silent; one of the recovery family
  // (properties/properties.ts), a session that does not heal, makes it stuck.
  const recovery = (p: string) => PROPERTY_FAMILY.get(p) === 'recovery';
  const silentProps = violated.filter((p) => !recovery(p));
  const silentCalls = j.outcomes.filter((o) => o.outcome === 'silent-empty' || o.outcome === 'silent-hang');
  if (silentProps.length || silentCalls.length) {
    const why = silentProps.length
      ? `${silentProps[0]}: ${j.verdicts[silentProps[0]!]!.why ?? 'violated'}`
      : `call ${silentCalls[0]!.callId} ${silentCalls[0]!.outcome}`;
    return { verdict: 'silent', why };
  }
  const miss = expectationMiss(s, h);
  if (miss) return { verdict: 'silent', why: miss };
  const stuck = violated.find(recovery);
  if (stuck !== undefined) return { verdict: 'stuck', why: `${stuck}: ${j.verdicts[stuck]!.why ?? 'violated'}` };
  if (j.outcomes.some((o) => o.outcome === 'error')) return { verdict: 'loud', why: 'an error the agent sees, then recovery' };
  return { verdict: 'pass', why: 'every call ok' };
}

/** The server's answer to the request the scenario's first fault acted on. */
export function faultedResponse(h: History): Response | undefined {
  const fault = h.entries.find((e) => e.kind === 'fault' && e.applied);
  if (fault?.kind !== 'fault') return undefined;
  return h.entries.find((e): e is Response => e.kind === 'response' && e.req === fault.at);
}

function expectationMiss(s: Pick<Scenario, 'expectStatus'>, h: History): string | null {
  if (s.expectStatus === undefined) return null;
  const r = faultedResponse(h);
  if (!r) return null;
  // Another error status is still a signal the client sees: the spec lens judges which status is due.
  return r.status === s.expectStatus || r.status >= 300
    ? null
    : `expected HTTP ${s.expectStatus} to the faulted request, got ${r.status} (accepted without a signal)`;
}

function describeResponse(r: Response): string {
  // What the body is, where its Content-Type misnames it (a JSON error sent without one), else its kind;
  // the only body of kind 'empty' that has bytes is the error page the network makes (exchange-view.ts).
  const body =
    r.content ??
    (r.body === 'sse'
      ? `sse${r.events !== undefined ? ` ${r.events} events` : ''}${r.complete === false ? ' cut' : ''}`
      : r.body === 'empty' && r.from === 'load-balancer' && r.contentType?.startsWith('text/html')
        ? 'an HTML error page'
        : r.body);
  const from =
    r.reached === UNREACHABLE ? " (the audit's proxy: the server was unreachable)" : r.from === 'load-balancer' ? ' (load balancer)' : '';
  return `${r.status} ${r.contentType ?? '-'} ${body}${from}`;
}

const short = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/** One line: the fault, the server's answer to it, then each call's end with its times, marked as the
 *  run's clock: virtual, or the wall clock of a client in another process (a client audit's runs). */
export function evidenceOf(h: History, j: Judgement, clock: 'virtual' | 'wall' = 'virtual'): string {
  const parts: string[] = [];
  const fault = h.entries.find((e) => e.kind === 'fault');
  if (fault?.kind === 'fault') {
    const req = h.entries.find((e) => e.kind === 'request' && e.req === fault.at);
    const rpc = req?.kind === 'request' ? req.rpc : '?';
    const r = fault.applied ? faultedResponse(h) : undefined;
    parts.push(
      fault.applied
        ? `${fault.fault} on req ${fault.at} ${rpc} → ${r ? describeResponse(r) : 'no response'}`
        : `${fault.fault} did not act: ${fault.detail}`,
    );
  }
  for (const o of j.outcomes) {
    const e = o.end;
    const how = e.end === 'error' ? `error (${short(e.reason, 60)})` : e.end === 'result' ? o.outcome : `${e.end} ${o.outcome}`;
    parts.push(`call ${o.callId} ${how} t=${o.invokedAt}→${o.endedAt}${e.attempts > 1 ? ` ×${e.attempts}` : ''}`);
  }
  // Said once: a virtual 30 s deadline costs microseconds, and no t= may read as the other clock's.
  return `${parts.join('; ')}${j.outcomes.length ? ` (t: ${clock === 'wall' ? 'wall-clock' : 'virtual'} ms)` : ''}`;
}

// Where a client scenario's faults land on a real client: a scenario names requests by what they
// carry (the tools/call of workload call n, the GET stream), and a client's own order decides their
// indexes. The client's fault-free run gives those indexes (the absolute plan that reproduces the
// scenario), and a faulted run is checked against it: a client's requests race its own background
// work (the GET stream it opens), so the marked request may carry something else in a faulted run.
// Apart from the runner because both the agent's and the library's runs (client/faulted-run.ts) use it.
import type { History, HistoryEntry } from '../../core/history.ts';
import { sortPlan, type FaultPlan } from '../../core/plan.ts';
import type { Revision } from '../../../models/policies.ts';
import { UNSUPPORTED_REVISION } from '../../wire/process/cmd-client.ts';
import type { ClientScenario, RequestMark } from './scenarios.ts';

type Request = Extract<HistoryEntry, { kind: 'request' }>;
const requests = (h: History) => h.entries.filter((e): e is Request => e.kind === 'request');
const label = (r: Request | undefined) => (r ? `${r.rpc}${r.callId !== undefined ? ` of call ${r.callId}` : ''}` : 'no request');
const markName = (mark: RequestMark) => ('rpc' in mark ? 'GET' : `tools/call of call ${mark.call}`);

/** The request index a mark names in the client's fault-free run, or null when that run has none. */
export function requestOf(reference: History, mark: RequestMark): number | null {
  if ('rpc' in mark) return requests(reference).find((e) => e.method === 'GET')?.req ?? null;
  const r = requests(reference).find((e) => e.rpc === 'tools/call' && e.callId === mark.call);
  return r ? r.req + (mark.shift ?? 0) : null;
}

/** The absolute plan of a scenario on this client, from its fault-free run. */
export function planOf(s: ClientScenario, reference: History): FaultPlan | { missing: string } {
  const plan = [];
  for (const f of s.faults) {
    const at = requestOf(reference, f.on);
    if (at === null) return { missing: `the fault-free run has no ${markName(f.on)}` };
    plan.push({ fault: f.fault, at });
  }
  return sortPlan(plan);
}

/** A marked (unshifted) request that carried something else in the faulted run than in the fault-free one. */
export function orderMiss(s: ClientScenario, plan: FaultPlan, reference: History, run: History): string | null {
  for (const f of s.faults) {
    if ('call' in f.on && f.on.shift) continue;
    const at = requestOf(reference, f.on)!;
    const want = requests(reference).find((e) => e.req === at);
    const got = requests(run).find((e) => e.req === at);
    if (label(want) !== label(got)) return `request ${at} carried ${label(got)}, not ${label(want)} as in the fault-free run`;
  }
  return plan.length ? null : 'empty plan';
}

/** The revision a run's harness spoke, or why it spoke none (it refused the one asked for). */
export function spokenRevision(h: History): { revision: Revision } | { refused: string } | null {
  for (const e of h.entries) {
    if (e.kind !== 'client') continue;
    if (e.note === 'discovered') return { revision: e.revision };
    if (e.note === 'handshake-failed' && e.reason.startsWith(UNSUPPORTED_REVISION)) return { refused: e.reason };
  }
  return null;
}

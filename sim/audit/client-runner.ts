// Audit a client: every client scenario (client-scenarios.ts) with the client under audit as a
// process behind the JSON-lines protocol (wire/cmd-client.ts), reaching the server through the
// loopback fault proxy, judged by the same oracles and verdicts as the server audit. For each
// scenario the client first runs fault-free; its faults are then placed on the requests that run
// names (the tools/call of workload call n), which gives the absolute plan that reproduces it.
// A client's requests race its own background work (the GET stream it opens), so a faulted run
// whose marked request carries something else is run again, and reported as not applicable if the
// order never holds. Runs are on the wall clock: evidence times are real milliseconds.
import type { History, HistoryEntry } from '../core/history.ts';
import { describePlan, sortPlan, type FaultPlan } from '../core/plan.ts';
import { judge } from '../../properties/judge.ts';
import { referenceOf } from '../../properties/outcomes.ts';
import { propertyByName } from '../../properties/properties.ts';
import type { AnyFold } from '../../properties/fold.ts';
import { CMD_CLIENT_TIMEOUT_MS } from '../wire/cmd-client.ts';
import type { Watchdog } from '../wire/watchdog.ts';
import type { WireServerSpec, WireSetup } from '../wire/setup.ts';
import { describeSides } from '../wire/setup.ts';
import { runWire } from '../wire/world.ts';
import { CLIENT_AUDIT_ORDER, CLIENT_SCENARIOS, NOT_FOR_CLIENTS, type ClientScenario, type RequestMark } from './client-scenarios.ts';
import type { AuditResult, ScenarioResult } from './runner.ts';
import { evidenceOf, passes, verdictOf } from './verdict.ts';

export interface ClientAuditOptions {
  /** The client's command line (`sh -c`). */
  command: string;
  /** How the client and server are named on a command line (`--client-cmd '…' --server …`). */
  sidesArgs: string;
  /** Armed on every run whose server is in-process (a loopback server's endpoint arms its own). */
  watchdog?: Watchdog;
  only?: readonly string[];
  onScenario?: (done: number, total: number, name: string) => void;
}

/** Faulted runs tried before a request order that never holds is reported as not applicable. */
const ORDER_TRIES = 3;

type Request = Extract<HistoryEntry, { kind: 'request' }>;
const requests = (h: History) => h.entries.filter((e): e is Request => e.kind === 'request');
const label = (r: Request | undefined) => (r ? `${r.rpc}${r.callId !== undefined ? ` of call ${r.callId}` : ''}` : 'no request');

/** The request index a mark names in the client's fault-free run, or null when that run has none. */
export function requestOf(reference: History, mark: RequestMark): number | null {
  const r = requests(reference).find((e) => e.rpc === 'tools/call' && e.callId === mark.call);
  return r ? r.req + (mark.shift ?? 0) : null;
}

/** The absolute plan of a scenario on this client, from its fault-free run. */
export function planOf(s: ClientScenario, reference: History): FaultPlan | { missing: string } {
  const plan = [];
  for (const f of s.faults) {
    const at = requestOf(reference, f.on);
    if (at === null) return { missing: `the fault-free run has no tools/call of call ${f.on.call}` };
    plan.push({ fault: f.fault, at });
  }
  return sortPlan(plan);
}

/** A marked (unshifted) request that carried something else in the faulted run than in the fault-free one. */
function orderMiss(s: ClientScenario, plan: FaultPlan, reference: History, run: History): string | null {
  for (const f of s.faults) {
    if (f.on.shift) continue;
    const at = requestOf(reference, f.on)!;
    const want = requests(reference).find((e) => e.req === at);
    const got = requests(run).find((e) => e.req === at);
    if (label(want) !== label(got)) return `request ${at} carried ${label(got)}, not ${label(want)} as in the fault-free run`;
  }
  return plan.length ? null : 'empty plan';
}

/** How the client reported the fault, if it did: a result after a retry can hide a wait for its own timeout. */
function firstFailure(h: History): string {
  const fault = h.entries.find((e) => e.kind === 'fault' && e.applied);
  const failed = h.entries.find((e) => e.kind === 'client' && e.note === 'attempt-failed');
  if (!fault || failed?.kind !== 'client' || failed.note !== 'attempt-failed') return '';
  return `; the client's error ${failed.t - fault.t} ms after the fault: ${failed.reason.slice(0, 60)}`;
}

/** A fault that is not a delay, first noticed by the client only when its own request timeout fired. */
function waitedOutTimeout(h: History): boolean {
  const fault = h.entries.find((e) => e.kind === 'fault' && e.applied);
  const failed = h.entries.find((e) => e.kind === 'client' && e.note === 'attempt-failed');
  if (fault?.kind !== 'fault' || fault.fault.startsWith('delay:') || failed?.kind !== 'client') return false;
  return failed.t - fault.t >= CMD_CLIENT_TIMEOUT_MS - 100;
}

async function runClientScenario(s: ClientScenario, setup: WireSetup, o: ClientAuditOptions): Promise<ScenarioResult> {
  const faults = [...new Set(s.faults.map((f) => f.fault))].join(',');
  const base = {
    name: s.name,
    asks: s.asks,
    judgedBy: s.judgedBy,
    reproduce: {
      audit: `mcp-faultsim audit ${o.sidesArgs} --only ${s.name}`,
      check: `mcp-faultsim check --wire ${o.sidesArgs} --faults ${faults}`,
    },
  };
  const reference = await runWire(setup, { workload: s.workload, plan: [] });
  const plan = planOf(s, reference);
  if ('missing' in plan) {
    const why = `${plan.missing} (the client did not reach it)`;
    return { ...base, plan: '(none)', verdict: 'not applicable', why, evidence: evidenceOf(reference, judge(reference, new Map(), [])) };
  }
  let history = await runWire(setup, { workload: s.workload, plan });
  let miss = orderMiss(s, plan, reference, history);
  for (let tries = 1; miss && tries < ORDER_TRIES; tries++) {
    history = await runWire(setup, { workload: s.workload, plan });
    miss = orderMiss(s, plan, reference, history);
  }
  const described = { ...base, plan: describePlan(plan) };
  const ref = referenceOf(reference);
  if (miss) {
    const why = `the client's requests came in another order in ${ORDER_TRIES} faulted runs: ${miss}`;
    return { ...described, verdict: 'not applicable', why, evidence: evidenceOf(history, judge(history, ref, [])) };
  }
  // Every fault must act: a cut stream whose resumption never came (no Last-Event-ID to strip) tested
  // only the cut, which stream-cut-call already does.
  const idle = history.entries.find((e) => e.kind === 'fault' && !e.applied);
  if (idle?.kind === 'fault') {
    const why = `${idle.fault} did not act in this run: ${idle.detail.replace(/^skipped: /, '')}`;
    return { ...described, verdict: 'not applicable', why, evidence: evidenceOf(history, judge(history, ref, [])) };
  }
  const properties = s.judgedBy.map((p) => propertyByName(p)).filter((p): p is AnyFold => p !== undefined);
  const judgement = judge(history, ref, properties);
  const judged = verdictOf({ judgedBy: s.judgedBy }, judgement, history);
  const verdict = judged.verdict;
  const why =
    judged.why + (waitedOutTimeout(history) ? `, after the client waited out its own ${CMD_CLIENT_TIMEOUT_MS / 1000} s timeout` : '');
  const refErrors = reference.entries.filter((e) => e.kind === 'end' && e.end !== 'result').length;
  const evidence = `${refErrors ? `(fault-free run: ${refErrors} call(s) without a result) ` : ''}${evidenceOf(history, judgement)}${firstFailure(history)}`;
  return { ...described, verdict, why, evidence };
}

export async function runClientAudit(server: WireServerSpec, o: ClientAuditOptions): Promise<AuditResult> {
  const setup: WireSetup = { client: { kind: 'cmd', command: o.command, ...(o.watchdog ? { watchdog: o.watchdog } : {}) }, server };
  const chosen = CLIENT_AUDIT_ORDER.filter((n) => !o.only?.length || o.only.includes(n));
  const scenarios: ScenarioResult[] = [];
  for (const name of chosen) {
    o.onScenario?.(scenarios.length, chosen.length, name);
    const s = CLIENT_SCENARIOS.find((c) => c.name === name);
    if (s) scenarios.push(await runClientScenario(s, setup, o));
    else {
      const why = NOT_FOR_CLIENTS[name] ?? 'not a client scenario';
      const reproduce = { audit: `mcp-faultsim audit ${o.sidesArgs} --only ${name}`, check: '' };
      scenarios.push({ name, asks: '', verdict: 'not applicable', why, evidence: why, plan: '(none)', judgedBy: [], reproduce });
    }
  }
  o.onScenario?.(scenarios.length, chosen.length, '');
  const sides = describeSides(setup);
  return {
    client: o.command,
    server: sides.server,
    revisions: ['2025-11-25'],
    scenarios,
    pending: CLIENT_PENDING,
    passed: scenarios.every((r) => passes(r.verdict)),
  };
}

export const CLIENT_PENDING: readonly { name: string; why: string }[] = [
  {
    name: 'get-405',
    why: 'a client must cope with 405 on its GET stream (a server that offers none): no fault answers a GET with 405 yet',
  },
];

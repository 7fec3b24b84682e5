// Audit a client: every client scenario (client/scenarios.ts) with the client under audit as a
// process behind the JSON-lines protocol (wire/process/cmd-client.ts), reaching the server through the
// loopback fault proxy, judged by the same oracles and verdicts as the server audit. For each
// scenario the client first runs fault-free; its faults are then placed on the requests that run
// names (the tools/call of workload call n), which gives the absolute plan that reproduces it.
// A client's requests race its own background work (the GET stream it opens), so a faulted run
// whose marked request carries something else is run again, and reported as not applicable if the
// order never holds. Runs are on the wall clock: evidence times are real milliseconds.
// Each scenario has two verdicts: the agent's (the faulted run under the agent loop: retry once, a
// new connect after a gone session) and the library's (the same plan with the loop off: what the
// client did on its own, with the spec marks of client-library.ts). A scenario runs in the revision
// the harness is asked for; one the harness did not speak (an older harness answers 2025-11-25) is
// not applicable, with why.
// Why one file: not yet split after issue 38's merge (312 lines): a scenario's library run and its
// verdict belong in a file of their own.
import type { History, HistoryEntry } from '../../core/history.ts';
import { describePlan, sortPlan, type FaultPlan } from '../../core/plan.ts';
import { call } from '../../core/workload.ts';
import { judge } from '../../../properties/judge.ts';
import { referenceOf } from '../../../properties/outcomes.ts';
import { propertyByName } from '../../../properties/properties.ts';
import type { AnyFold } from '../../../properties/fold.ts';
import type { Revision } from '../../../models/policies.ts';
import { CMD_CLIENT_TIMEOUT_MS, UNSUPPORTED_REVISION, type HarnessRevision } from '../../wire/process/cmd-client.ts';
import type { Watchdog } from '../../wire/process/watchdog.ts';
import type { WireServerSpec, WireSetup } from '../../wire/setup.ts';
import { describeSides } from '../../wire/setup.ts';
import { runWire } from '../../wire/world.ts';
import { RUN_LIMIT_MS } from '../../wire/proxy-run.ts';
import {
  CLIENT_AUDIT_FAULTS,
  CLIENT_AUDIT_ORDER,
  CLIENT_SCENARIOS,
  NOT_FOR_CLIENTS,
  type ClientScenario,
  type RequestMark,
} from './scenarios.ts';
import { libraryVerdict } from '../client-library.ts';
import type { AuditResult, ScenarioResult } from '../audit-row.ts';
import { evidenceOf, passes, verdictOf } from '../verdict.ts';

export interface ClientAuditOptions {
  /** The client's command line (`sh -c`). */
  command: string;
  /** How the client and server are named on a command line (`--client-cmd '…' --server …`). */
  sidesArgs: string;
  /** Armed on every run whose server is in-process (a loopback server's endpoint arms its own). */
  watchdog?: Watchdog;
  only?: readonly string[];
  onScenario?: (done: number, total: number, name: string) => void;
  /** The revision `connect` asks for (default: the library's own). */
  revision?: HarnessRevision;
  /** The request timeout the agent runs give the harness, real ms (default CMD_CLIENT_TIMEOUT_MS).
   *  The library runs give none: the library is judged with its own defaults. */
  timeoutMs?: number;
  /** The library's declared default request timeout (the manifest's `defaultTimeoutMs`): ms, null
   *  for none; undefined when not declared. Printed in the evidence of a call that never settled. */
  declaredTimeoutMs?: number | null;
}

/** Real ms a library run goes on once its fault has acted, nothing is in flight and nothing moves
 *  (proxy-run.ts's quiet end): longer than the SDKs' reconnection back-off (1 s, then 1.5 s). */
export const LIBRARY_QUIET_MS = 6000;

/** The declared default as evidence prints it. */
export function declaredText(ms: number | null | undefined): string {
  return ms === undefined ? 'not declared' : ms === null ? 'none' : `${ms} ms`;
}

/** Real ms a run may take before its open calls end `never`: three calls may each time out twice
 *  under the agent loop, and a slow start (a loaded machine, a Python client's imports) must not read
 *  as a hang. A library alone, with no timeout given, gets RUN_LIMIT_MS, ended sooner by the quiet
 *  end once its fault has acted and nothing is in flight (LIBRARY_QUIET_MS). */
const runLimits = (timeoutMs: number) => ({ library: RUN_LIMIT_MS, agent: Math.min(RUN_LIMIT_MS, 6 * timeoutMs + 4000) });

/** Faulted runs tried before a request order that never holds is reported as not applicable. */
const ORDER_TRIES = 3;

type Request = Extract<HistoryEntry, { kind: 'request' }>;
const requests = (h: History) => h.entries.filter((e): e is Request => e.kind === 'request');
const label = (r: Request | undefined) => (r ? `${r.rpc}${r.callId !== undefined ? ` of call ${r.callId}` : ''}` : 'no request');

/** The request index a mark names in the client's fault-free run, or null when that run has none. */
export function requestOf(reference: History, mark: RequestMark): number | null {
  if ('rpc' in mark) return requests(reference).find((e) => e.method === 'GET')?.req ?? null;
  const r = requests(reference).find((e) => e.rpc === 'tools/call' && e.callId === mark.call);
  return r ? r.req + (mark.shift ?? 0) : null;
}

const markName = (mark: RequestMark) => ('rpc' in mark ? 'GET' : `tools/call of call ${mark.call}`);

/** The revision a run's harness spoke, or why it spoke none (it refused the one asked for). */
export function spokenRevision(h: History): { revision: Revision } | { refused: string } | null {
  for (const e of h.entries) {
    if (e.kind !== 'client') continue;
    if (e.note === 'discovered') return { revision: e.revision };
    if (e.note === 'handshake-failed' && e.reason.startsWith(UNSUPPORTED_REVISION)) return { refused: e.reason };
  }
  return null;
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
function orderMiss(s: ClientScenario, plan: FaultPlan, reference: History, run: History): string | null {
  for (const f of s.faults) {
    if ('call' in f.on && f.on.shift) continue;
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
function waitedOutTimeout(h: History, timeoutMs: number): boolean {
  const fault = h.entries.find((e) => e.kind === 'fault' && e.applied);
  const failed = h.entries.find((e) => e.kind === 'client' && e.note === 'attempt-failed');
  if (fault?.kind !== 'fault' || fault.fault.startsWith('delay:') || failed?.kind !== 'client') return false;
  return failed.t - fault.t >= timeoutMs - 100;
}

/** Runs a scenario's plan until the marked requests carry what they did in the fault-free run. */
async function faultedRun(
  s: ClientScenario,
  setup: WireSetup,
  plan: FaultPlan,
  reference: History,
): Promise<{ history: History; miss: string | null }> {
  let history = await runWire(setup, { workload: s.workload, plan }, { additions: CLIENT_AUDIT_FAULTS });
  let miss = orderMiss(s, plan, reference, history);
  for (let tries = 1; miss && tries < ORDER_TRIES; tries++) {
    history = await runWire(setup, { workload: s.workload, plan }, { additions: CLIENT_AUDIT_FAULTS });
    miss = orderMiss(s, plan, reference, history);
  }
  return { history, miss };
}

/** Why a faulted run tested nothing (a fault that did not act, an order that never held), or null. */
function untested(history: History, miss: string | null): string | null {
  if (miss) return `the client's requests came in another order in ${ORDER_TRIES} faulted runs: ${miss}`;
  // Every fault must act: a cut stream whose resumption never came (no Last-Event-ID to strip) tested
  // only the cut, which stream-cut-call already does.
  const idle = history.entries.find((e) => e.kind === 'fault' && !e.applied);
  return idle?.kind === 'fault' ? `${idle.fault} did not act in this run: ${idle.detail.replace(/^skipped: /, '')}` : null;
}

/** The model server in a legacy revision numbers its SSE events (it can resume); the SDK servers keep no event store. */
function offersEventIds(server: WireServerSpec, revision: Revision): boolean {
  return server.kind === 'model' && revision === '2025-11-25';
}

async function runClientScenario(s: ClientScenario, setup: WireSetup, revision: Revision, o: ClientAuditOptions): Promise<ScenarioResult> {
  const faults = [...new Set(s.faults.map((f) => f.fault))].join(',');
  const timeoutMs = o.timeoutMs ?? CMD_CLIENT_TIMEOUT_MS;
  const base = {
    name: s.name,
    asks: s.asks,
    judgedBy: s.judgedBy,
    revision,
    reproduce: {
      audit: `mcp-faultsim audit ${o.sidesArgs} --only ${s.name}`,
      check: s.faults.some((f) => f.fault === 'get-405') ? '' : `mcp-faultsim check --wire ${o.sidesArgs} --faults ${faults}`,
    },
  };
  const notApplicable = (why: string, evidence: string, plan = '(none)'): ScenarioResult => ({
    ...base,
    plan,
    verdict: 'not applicable',
    why,
    evidence,
  });
  if (!s.revisions.includes(revision)) {
    const why = `a ${s.revisions.join(', ')} scenario; the harness spoke ${revision}`;
    return notApplicable(why, why);
  }
  const reference = await runWire(setup, { workload: s.workload, plan: [] });
  const plan = planOf(s, reference);
  if ('missing' in plan)
    return notApplicable(
      `${plan.missing} (the client did not reach it)`,
      evidenceOf(reference, judge(reference, referenceOf(reference), [])),
    );
  const ref = referenceOf(reference);
  const agent = await faultedRun(s, setup, plan, reference);
  const skip = untested(agent.history, agent.miss);
  if (skip) return notApplicable(skip, evidenceOf(agent.history, judge(agent.history, ref, [])), describePlan(plan));
  const history = agent.history;
  const properties = s.judgedBy.map((p) => propertyByName(p)).filter((p): p is AnyFold => p !== undefined);
  const judgement = judge(history, ref, properties);
  const judged = verdictOf({ judgedBy: s.judgedBy }, judgement, history);
  const why =
    judged.why + (waitedOutTimeout(history, timeoutMs) ? `, after the client waited out its own ${timeoutMs / 1000} s timeout` : '');
  const refErrors = reference.entries.filter((e) => e.kind === 'end' && e.end !== 'result').length;
  const evidence = `${refErrors ? `(fault-free run: ${refErrors} call(s) without a result) ` : ''}${evidenceOf(history, judgement)}${firstFailure(history)}`;

  // The library alone: the same plan, the agent loop off, no timeout given (the library's defaults);
  // the audit's watchdog is the only bound.
  const alone: WireSetup = {
    ...setup,
    client: {
      ...setup.client,
      agentLoop: false,
      timeoutMs: null,
      runLimitMs: runLimits(timeoutMs).library,
      quietEndMs: LIBRARY_QUIET_MS,
    } as WireSetup['client'],
  };
  const lib = await faultedRun(s, alone, plan, reference);
  const libSkip = untested(lib.history, lib.miss);
  const libJudgement = judge(lib.history, ref, properties);
  const context = {
    scenario: s.name,
    revision,
    timeoutMs: o.declaredTimeoutMs ?? null,
    declaredTimeout: declaredText(o.declaredTimeoutMs),
    offersEventIds: offersEventIds(setup.server, revision),
  };
  const library = libSkip
    ? {
        behaviour: 'not applicable' as const,
        verdict: 'not tested' as const,
        passed: true,
        why: libSkip,
        marks: [],
        evidence: evidenceOf(lib.history, libJudgement),
      }
    : { ...libraryVerdict(lib.history, libJudgement, context), evidence: evidenceOf(lib.history, libJudgement) };
  return { ...base, plan: describePlan(plan), verdict: judged.verdict, why, evidence, library };
}

export interface ClientAuditResult extends AuditResult {
  /** The revision asked for, and the one the harness spoke (absent when it refused). */
  asked: HarnessRevision;
  /** Why no scenario ran in the asked revision (the harness refused it, or spoke another), if so. */
  refused?: string;
}

export async function runClientAudit(server: WireServerSpec, o: ClientAuditOptions): Promise<ClientAuditResult> {
  const asked = o.revision ?? 'default';
  const timeoutMs = o.timeoutMs ?? CMD_CLIENT_TIMEOUT_MS;
  const client = {
    kind: 'cmd' as const,
    command: o.command,
    revision: asked,
    timeoutMs,
    runLimitMs: runLimits(timeoutMs).agent,
    ...(o.watchdog ? { watchdog: o.watchdog } : {}),
  };
  const setup: WireSetup = { client, server };
  const chosen = CLIENT_AUDIT_ORDER.filter((n) => !o.only?.length || o.only.includes(n));
  // Which revision the harness speaks when asked: one short fault-free run.
  const probe = spokenRevision(await runWire(setup, { workload: [call()], plan: [] }));
  const spoke = probe && 'revision' in probe ? probe.revision : null;
  const refused =
    probe === null
      ? 'the harness never connected'
      : 'refused' in probe
        ? `the harness cannot speak ${asked}: ${probe.refused.slice(UNSUPPORTED_REVISION.length + 2)}`
        : asked !== 'default' && spoke !== asked
          ? `asked for ${asked}, the harness spoke ${spoke} (an older harness ignores the revision)`
          : undefined;
  const scenarios: ScenarioResult[] = [];
  for (const name of chosen) {
    o.onScenario?.(scenarios.length, chosen.length, name);
    const s = CLIENT_SCENARIOS.find((c) => c.name === name);
    const reproduce = { audit: `mcp-faultsim audit ${o.sidesArgs} --only ${name}`, check: '' };
    const na = (why: string): ScenarioResult => ({
      name,
      asks: s?.asks ?? '',
      verdict: 'not applicable',
      why,
      evidence: why,
      plan: '(none)',
      judgedBy: [],
      reproduce,
    });
    if (!s) scenarios.push(na(NOT_FOR_CLIENTS[name] ?? 'not a client scenario'));
    else if (refused !== undefined || spoke === null) scenarios.push(na(refused ?? 'the harness never connected'));
    else scenarios.push(await runClientScenario(s, setup, spoke, o));
  }
  o.onScenario?.(scenarios.length, chosen.length, '');
  const sides = describeSides(setup);
  // The exit follows the printed verdicts: the agent's and, beside it, the library's (audit-verdict.ts).
  const passed = scenarios.every((r) => passes(r.verdict) && (!r.library || passes(r.library.verdict)));
  return {
    client: o.command,
    server: sides.server,
    revisions: spoke ? [spoke] : [],
    asked,
    ...(refused !== undefined ? { refused } : {}),
    scenarios,
    pending: [],
    passed,
  };
}

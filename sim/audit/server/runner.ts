// Run the audit: every scenario against one server, each on the wire (runWire) with its own
// fault-free reference run, judged by the existing oracles (judge, callOutcomes). A scenario whose
// revision the server does not speak, or whose fault the server cannot take part in (a --target
// server cannot be made to forget a session), is `not applicable`, with why. Deterministic: no clock.
import type { History, HistoryEntry } from '../../core/history.ts';
import { describePlan } from '../../core/plan.ts';
import { combination, formatClient, type ClientPolicy, type Revision } from '../../../models/policies.ts';
import { judge } from '../../../properties/judge.ts';
import { referenceOf } from '../../../properties/outcomes.ts';
import { propertyByName } from '../../../properties/properties.ts';
import type { AnyFold } from '../../../properties/fold.ts';
import type { WireServerSpec, WireSetup } from '../../wire/setup.ts';
import { describeSides } from '../../wire/setup.ts';
import { runWire, type WireOptions } from '../../wire/world.ts';
import { PENDING_SCENARIOS, SCENARIOS, type Scenario } from '../scenarios.ts';
import { actedOn, sessionIssued } from './acted.ts';
import { deliveredTwice } from './delivered.ts';
import { shapeResults } from './result-shape.ts';
import type { ToolChoice } from './tool-choice.ts';
import { evidenceOf, passes, verdictOf, type AuditVerdict } from '../verdict.ts';

export type { AuditResult, LibraryResult, ScenarioResult } from '../audit-row.ts';
import { specVerdictOf } from '../../core/audit-verdict.ts';
import type { AuditResult, ScenarioResult } from '../audit-row.ts';
import { PROBES, runProbe } from './probes.ts';
import { SPEC_LITERAL, specLiteralOf } from './spec-client.ts';
import { lensOfRun } from './spec-lens.ts';
import { ReceivedSchema } from './received-schema.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

export interface AuditOptions {
  /** How the server is named on a command line (`--server sdk-sse`, `--serve '…'`). */
  serverArgs: string;
  /** The revisions a --target/--serve server speaks (in-process servers say so themselves). */
  loopbackRevisions?: readonly Revision[];
  only?: readonly string[];
  onScenario?: (done: number, total: number, name: string) => void;
  /** A real server's own tools (tool-choice.ts); absent: the server's preset tools. */
  toolChoice?: ToolChoice;
  /** A real server: the revisions found, in one line (revisions.ts). */
  revisionsFound?: string;
  /** A real server: the exact version negotiated for each of loopbackRevisions (revisions.ts). */
  speaks?: readonly string[];
}

/** The server a scenario runs against: for one that needs a side effect, a loopback server calls the
 *  side-effecting tool the user named, or the scenario cannot run (null, with why). */
function withSideEffect(s: Scenario, server: WireServerSpec, o: AuditOptions): { server: WireServerSpec; tool?: string } | { why: string } {
  if (!s.needsSideEffect || server.kind !== 'loopback' || !o.toolChoice) return { server };
  const se = o.toolChoice.sideEffect;
  if (!se)
    return {
      why: 'no tool with a side effect was named: give --call NAME --args JSON for a tool not annotated readOnlyHint/idempotentHint (the audit calls none on its own)',
    };
  const tools = { plain: se.tool, progress: se.tool };
  return { server: { ...server, endpoint: { ...server.endpoint, tools } }, tool: `${se.tool.name} (${se.why})` };
}

export function serverRevisions(server: WireServerSpec, loopback: readonly Revision[] = ['2025-11-25']): Revision[] {
  const protocol =
    server.kind === 'model'
      ? server.policy.protocol
      : server.kind === 'sdk2'
        ? server.protocol
        : server.kind === 'sdk'
          ? '2025-11-25'
          : null;
  if (protocol === null) return [...loopback];
  return protocol === 'dual' ? ['2025-11-25', '2026-07-28'] : [protocol];
}

function skippedWhy(entries: readonly HistoryEntry[]): string | null {
  for (const e of entries)
    if (e.kind === 'fault' && !e.applied && e.detail.startsWith('skipped: ')) return e.detail.slice('skipped: '.length);
  return null;
}

/** A scenario's row, with a finding for every malformed message its runs received (received-schema.ts). */
async function runScenario(
  given: Scenario,
  server: WireServerSpec,
  revisions: readonly Revision[],
  o: AuditOptions,
): Promise<ScenarioResult> {
  // A 2025-11-25 client cannot talk to a server of 2026-07-28 only: such a server meets the modern variant.
  const s = given.modern && !revisions.includes('2025-11-25') ? { ...given, ...given.modern } : given;
  const policy = combination({ client: s.client }, NO_ADDITIONS).client;
  const received = new ReceivedSchema(policy.protocol === '2026-07-28' ? '2026-07-28' : '2025-11-25');
  const row = await scenarioRow(s, policy, server, revisions, o, received.onMessage);
  const finding = received.finding();
  if (!finding) return row;
  const checks = [...(row.spec?.checks ?? []), finding];
  return { ...row, spec: { verdict: specVerdictOf(checks), checks } };
}

async function scenarioRow(
  s: Scenario,
  policy: ClientPolicy,
  server: WireServerSpec,
  revisions: readonly Revision[],
  o: AuditOptions,
  onMessage: NonNullable<WireOptions['onMessage']>,
): Promise<ScenarioResult> {
  const faults = [...new Set(s.plan.map((f) => f.fault))].join(',');
  const base = {
    name: s.name,
    asks: s.asks,
    plan: describePlan(s.plan),
    judgedBy: s.judgedBy,
    reproduce: {
      audit: `mcp-faultsim audit ${o.serverArgs} --only ${s.name}`,
      check: `mcp-faultsim check --wire --client ${formatClient(policy)} ${o.serverArgs} --faults ${faults}`,
    },
  };
  if (!s.revisions.some((r) => revisions.includes(r))) {
    const why = `the server speaks ${revisions.join(', ')}; the scenario is for ${s.revisions.join(', ')}`;
    return { ...base, verdict: 'not applicable', why, evidence: why, spec: NOT_TESTED };
  }
  const chosen = withSideEffect(s, server, o);
  if ('why' in chosen) return { ...base, verdict: 'not tested', why: chosen.why, evidence: chosen.why, spec: NOT_TESTED };
  const tool = chosen.tool !== undefined ? { tool: chosen.tool } : {};
  const setup: WireSetup = { client: { kind: 'model', policy }, server: chosen.server };
  const shape = o.toolChoice?.byShape ? shapeResults : (h: History) => h;
  const reference = shape(await runWire(setup, { workload: s.workload, plan: [] }, { onMessage }));
  // A fault-free run that fails already leaves nothing to judge under a fault.
  const broken = brokenWithoutFaults(reference);
  if (broken) return { ...base, ...tool, verdict: 'broken without faults', why: broken.why, evidence: broken.evidence, spec: NOT_TESTED };
  const plan = planFor(s, reference);
  base.plan = describePlan(plan);
  const history = shape(await runWire(setup, { workload: s.workload, plan }, { onMessage }));
  const skipped = skippedWhy(history.entries);
  if (skipped) {
    // A session fault on a server that issued no session id: what the row asks of sessions does not apply.
    if (s.plan.some((f) => f.fault === 'session-expire') && !sessionIssued(history)) {
      const why = 'the server issues no session id (Mcp-Session-Id): the requirement does not apply';
      return { ...base, ...tool, verdict: 'not applicable', why, evidence: skipped, spec: NOT_TESTED };
    }
    const why = `the fault cannot act on this server: ${skipped}`;
    return { ...base, ...tool, verdict: 'not tested', why, evidence: skipped, spec: NOT_TESTED };
  }
  // A plan whose fault changed nothing at the server, or on the way back, tested nothing: never a pass.
  const acted = actedOn(history, reference);
  if (acted.notApplicable) {
    const evidence = evidenceOf(history, judge(history, referenceOf(reference), []));
    return { ...base, ...tool, verdict: 'not applicable', why: acted.notApplicable, evidence, acted: acted.how, spec: NOT_TESTED };
  }
  const missing = acted.acted ? situationMissing(s, history) : null;
  if (!acted.acted || missing) {
    const why = missing ?? `the fault did not act (${acted.how})`;
    const evidence = evidenceOf(history, judge(history, referenceOf(reference), []));
    return { ...base, ...tool, verdict: 'not tested', why, evidence, acted: acted.how, spec: NOT_TESTED };
  }
  // A server that also speaks 2025-11-25 MAY answer what the expectation refuses: no expectation then.
  const judged = s.expectOnlyModernOnly && revisions.includes('2025-11-25') ? { ...s, expectStatus: undefined } : s;
  const { verdict, why, evidence: seen } = judgeRun(judged, history, reference);
  const evidence = `${seen}${proxyNote(s, history)}`;
  const checks = lensOfRun(s.name, history, revisions);
  const result: ScenarioResult = {
    ...base,
    ...tool,
    verdict,
    why,
    evidence,
    acted: acted.how,
    spec: { verdict: specVerdictOf(checks), checks },
  };
  const literal = specLiteralOf(policy);
  // The two clients part only at a failed attempt (the forgiving one opens a new session there): a run
  // without one is the spec-literal client's run too, and is not run twice.
  const parted = history.entries.some((e) => e.kind === 'client' && e.note === 'attempt-failed');
  if (literal && !parted) result.literal = { verdict, why: `${why} (no call failed: the two clients did not part)`, evidence: seen };
  else if (literal) {
    const literalSetup: WireSetup = { client: { kind: 'model', policy: literal }, server: chosen.server };
    const h = shape(await runWire(literalSetup, { workload: s.workload, plan: s.plan }, { additions: SPEC_LITERAL, onMessage }));
    result.literal = judgeRun(judged, h, reference);
  }
  return result;
}

const NOT_TESTED = { verdict: 'not tested' as const, checks: [] };

/** A hazard's plan against a server that answered the faulted call with JSON in the fault-free run: its own. */
function planFor(s: Scenario, reference: History): Scenario['plan'] {
  const at = s.plan[0]?.at;
  const answer = reference.entries.find((e) => e.kind === 'response' && e.req === at);
  return s.hazard && answer?.kind === 'response' && answer.body === 'json' ? s.hazard.jsonPlan : s.plan;
}

/** Why the fault-free run failed (its calls without a result), or null when every call got one. */
function brokenWithoutFaults(reference: History): { why: string; evidence: string } | null {
  const failed = reference.entries.filter((e) => e.kind === 'end' && e.end !== 'result');
  if (!failed.length) return null;
  const evidence = `fault-free run: ${evidenceOf(reference, judge(reference, referenceOf(reference), []))}`;
  return { why: `the fault-free run already fails: ${failed.length} call(s) without a result`, evidence };
}

/** The situation a scenario judges, where the fault acting does not make it (a fallback): why it did not arise. */
function situationMissing(s: Scenario, h: History): string | null {
  if (!s.needsFallback) return null;
  const fellBack = h.entries.some((e) => e.kind === 'client' && e.note === 'fallback');
  return fellBack
    ? null
    : `the fault acted but the server accepted the request as it came: no fallback to HTTP+SSE happened, so there is nothing to judge (${s.needsFallback})`;
}

/** A run's resilience verdict, why and evidence, by the scenario's oracles. */
function judgeRun(s: Scenario, history: History, reference: History): { verdict: AuditVerdict; why: string; evidence: string } {
  const properties = s.judgedBy.map((p) => propertyByName(p)).filter((p): p is AnyFold => p !== undefined);
  const judgement = judge(history, referenceOf(reference), properties);
  const judged = verdictOf(s, judgement, history);
  // A black box tells nothing of what it ran: a side-effecting call the server accepted twice ran twice.
  const twice = s.judgedBy.includes('at-most-once') && judged.verdict !== 'silent' ? deliveredTwice(history) : null;
  const { verdict, why } = twice ? { verdict: 'silent' as const, why: `at-most-once: ${twice}` } : judged;
  // A duplicate the revision gives the server no way to prevent is the protocol's hazard, not the server's silence.
  if (s.hazard && verdict === 'silent' && why.startsWith('at-most-once:'))
    return { verdict: 'protocol hazard', why: `${why}; ${s.hazard.preventedBy}`, evidence: evidenceOf(history, judgement) };
  return { verdict, why, evidence: evidenceOf(history, judgement) };
}

/** A session the server could not be made to forget was forgotten at the proxy: said beside the evidence. */
function proxyNote(s: Scenario, h: History): string {
  if (s.name !== 'unknown-session' || !h.wire) return '';
  const inProcess = ['model', 'sdk', 'sdk2'].some((k) => h.wire!.server.startsWith(k));
  const forgot = h.entries.some((e) => e.kind === 'server' && e.note === 'session-forgotten');
  return forgot && !inProcess
    ? ' (the session was forgotten at the proxy: its requests reach the server with a session id it never issued)'
    : '';
}

/** The tools line, naming the side-effecting tool as judged only where a scenario of this audit called it. */
function toolsSaid(said: string, rows: readonly ScenarioResult[]): string {
  if (rows.some((r) => r.tool !== undefined)) return said;
  return said.replace(' where at-most-once is judged', ', named, but no scenario of this audit calls it');
}

/** Every scenario name `--only` takes: the fault scenarios, then the probes. */
export const AUDIT_SCENARIO_NAMES: readonly string[] = [...SCENARIOS.map((s) => s.name), ...PROBES.map((p) => p.name)];

export async function runAudit(server: WireServerSpec, o: AuditOptions): Promise<AuditResult> {
  const revisions = serverRevisions(server, o.loopbackRevisions);
  const pick = <T extends { name: string }>(list: readonly T[]) => (o.only?.length ? list.filter((s) => o.only!.includes(s.name)) : list);
  const chosen = pick(SCENARIOS);
  const probes = pick(PROBES);
  const total = chosen.length + probes.length;
  const scenarios: ScenarioResult[] = [];
  for (const s of chosen) {
    o.onScenario?.(scenarios.length, total, s.name);
    scenarios.push(await runScenario(s, server, revisions, o));
  }
  for (const p of probes) {
    o.onScenario?.(scenarios.length, total, p.name);
    scenarios.push(await runProbe(p, server, revisions, o.serverArgs, o.toolChoice));
  }
  o.onScenario?.(scenarios.length, total, '');
  const name = describeSides({ client: { kind: 'sdk' }, server }).server;
  const passed = scenarios.every((r) => passes(r.verdict));
  const conforms = scenarios.every((r) => r.spec?.verdict !== 'violates');
  const tools = o.toolChoice ? { tools: toolsSaid(o.toolChoice.said, scenarios) } : {};
  const found = {
    ...(o.revisionsFound !== undefined ? { revisionsFound: o.revisionsFound } : {}),
    ...(o.speaks !== undefined ? { speaks: o.speaks } : {}),
  };
  return { server: name, revisions, scenarios, pending: PENDING_SCENARIOS, passed, conforms, ...tools, ...found };
}

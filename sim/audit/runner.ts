// Run the audit: every scenario against one server, each on the wire (runWire) with its own
// fault-free reference run, judged by the existing oracles (judge, callOutcomes). A scenario whose
// revision the server does not speak, or whose fault the server cannot take part in (a --target
// server cannot be made to forget a session), is `not applicable`, with why. Deterministic: no clock.
import type { History, HistoryEntry } from '../core/history.ts';
import { describePlan } from '../core/plan.ts';
import { combination, formatClient, type Revision } from '../../models/policies.ts';
import { judge } from '../../properties/judge.ts';
import { referenceOf } from '../../properties/outcomes.ts';
import { propertyByName } from '../../properties/properties.ts';
import type { AnyFold } from '../../properties/fold.ts';
import type { WireServerSpec, WireSetup } from '../wire/setup.ts';
import { describeSides } from '../wire/setup.ts';
import { runWire } from '../wire/world.ts';
import { PENDING_SCENARIOS, SCENARIOS, type Scenario } from './scenarios.ts';
import { deliveredTwice } from './delivered.ts';
import { shapeResults } from './result-shape.ts';
import type { ToolChoice } from './tool-choice.ts';
import { evidenceOf, passes, verdictOf, type Verdict } from './verdict.ts';
import type { LibraryVerdict } from './client-library.ts';

export interface ScenarioResult {
  name: string;
  asks: string;
  verdict: Verdict;
  /** Why the verdict, in one line (the oracle that decided it, or why not applicable). */
  why: string;
  /** One line from the history: status codes, Content-Type, errors, virtual times. */
  evidence: string;
  plan: string;
  judgedBy: readonly string[];
  /** Command lines: `audit` re-runs exactly this plan; `check --wire` searches its fault family. */
  reproduce: { audit: string; check: string };
  /** For a scenario that needs a side-effecting call: the tool it called, and why that one. */
  tool?: string;
  /** A client audit's run: the revision the harness spoke. */
  revision?: Revision;
  /** A client audit: what the library did with the agent loop off (client-library.ts). */
  library?: LibraryResult;
}

/** The library's verdict as a client audit reports it (`not applicable` when its run tested nothing). */
export type LibraryResult = Omit<LibraryVerdict, 'behaviour'> & {
  behaviour: LibraryVerdict['behaviour'] | 'not applicable';
  evidence: string;
};

export interface AuditResult {
  /** Set when a client was audited (its command line); `server` is then the constant side. */
  client?: string;
  server: string;
  revisions: readonly Revision[];
  scenarios: ScenarioResult[];
  pending: readonly { name: string; why: string }[];
  passed: boolean;
  /** A real server's tools as called (tool-choice.ts), in one line. */
  tools?: string;
}

export interface AuditOptions {
  /** How the server is named on a command line (`--server sdk-sse`, `--serve '…'`). */
  serverArgs: string;
  /** The revisions a --target/--serve server speaks (in-process servers say so themselves). */
  loopbackRevisions?: readonly Revision[];
  only?: readonly string[];
  onScenario?: (done: number, total: number, name: string) => void;
  /** A real server's own tools (tool-choice.ts); absent: the server's preset tools. */
  toolChoice?: ToolChoice;
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

async function runScenario(
  given: Scenario,
  server: WireServerSpec,
  revisions: readonly Revision[],
  o: AuditOptions,
): Promise<ScenarioResult> {
  // A 2025-11-25 client cannot talk to a server of 2026-07-28 only: such a server meets the modern variant.
  const s = given.modern && !revisions.includes('2025-11-25') ? { ...given, ...given.modern } : given;
  const policy = combination({ client: s.client }).client;
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
    return { ...base, verdict: 'not applicable', why, evidence: why };
  }
  const chosen = withSideEffect(s, server, o);
  if ('why' in chosen) return { ...base, verdict: 'not applicable', why: chosen.why, evidence: chosen.why };
  const tool = chosen.tool !== undefined ? { tool: chosen.tool } : {};
  const setup: WireSetup = { client: { kind: 'model', policy }, server: chosen.server };
  const shape = o.toolChoice?.byShape ? shapeResults : (h: History) => h;
  const reference = shape(await runWire(setup, { workload: s.workload, plan: [] }));
  const history = shape(await runWire(setup, { workload: s.workload, plan: s.plan }));
  const skipped = skippedWhy(history.entries);
  if (skipped)
    return { ...base, ...tool, verdict: 'not applicable', why: `the fault cannot act on this server: ${skipped}`, evidence: skipped };
  // A plan none of whose faults acted tested nothing: reported as such, never as a pass.
  const faultEntries = history.entries.filter((e) => e.kind === 'fault');
  const acted = faultEntries.some((e) => e.kind === 'fault' && e.applied);
  if (!acted) {
    const first = faultEntries[0];
    const why = `the fault did not act on this server: ${first?.kind === 'fault' ? first.detail : 'the run ended before it fired'}`;
    return { ...base, ...tool, verdict: 'not applicable', why, evidence: evidenceOf(history, judge(history, referenceOf(reference), [])) };
  }
  const properties = s.judgedBy.map((p) => propertyByName(p)).filter((p): p is AnyFold => p !== undefined);
  const judgement = judge(history, referenceOf(reference), properties);
  const judged = verdictOf(s, judgement, history);
  // A black box tells nothing of what it ran: a side-effecting call the server accepted twice ran twice.
  const twice = s.judgedBy.includes('at-most-once') && judged.verdict !== 'silent' ? deliveredTwice(history) : null;
  const { verdict, why } = twice ? { verdict: 'silent' as const, why: `at-most-once: ${twice}` } : judged;
  const refErrors = reference.entries.filter((e) => e.kind === 'end' && e.end !== 'result').length;
  const evidence = `${refErrors ? `(fault-free run: ${refErrors} call(s) without a result) ` : ''}${evidenceOf(history, judgement)}`;
  return { ...base, ...tool, verdict, why, evidence };
}

export async function runAudit(server: WireServerSpec, o: AuditOptions): Promise<AuditResult> {
  const revisions = serverRevisions(server, o.loopbackRevisions);
  const chosen = o.only?.length ? SCENARIOS.filter((s) => o.only!.includes(s.name)) : SCENARIOS;
  const scenarios: ScenarioResult[] = [];
  for (const s of chosen) {
    o.onScenario?.(scenarios.length, chosen.length, s.name);
    scenarios.push(await runScenario(s, server, revisions, o));
  }
  o.onScenario?.(scenarios.length, chosen.length, '');
  const name = describeSides({ client: { kind: 'sdk' }, server }).server;
  const passed = scenarios.every((r) => passes(r.verdict));
  return { server: name, revisions, scenarios, pending: PENDING_SCENARIOS, passed, ...(o.toolChoice ? { tools: o.toolChoice.said } : {}) };
}

// One client scenario on one client, both verdicts: the fault-free run (which places the faults,
// client/request-marks.ts), the faulted run under the agent loop (retry once, a new connect after a
// gone session) judged by the scenario's properties, then the same plan for the library alone
// (client/library-run.ts). A scenario of another revision than the one the harness spoke is `not
// applicable`; a mark the client never reached, or a faulted run that tested nothing (its fault did not
// land where it judges), is `not tested`, with why, for the agent and the library alike: the client
// was not shown to be free of the defect, so the row must not read as if the scenario had no bearing.
// Its runs are on the wall clock (a client in another process): the evidence says so.
// Apart from the runner (client/runner.ts), which decides the revision and which scenarios run.
import { describePlan } from '../../core/plan.ts';
import { judge } from '../../../properties/judge.ts';
import { referenceOf } from '../../../properties/outcomes.ts';
import { propertyByName } from '../../../properties/properties.ts';
import type { AnyFold } from '../../../properties/fold.ts';
import type { Revision } from '../../../models/policies.ts';
import { CMD_CLIENT_TIMEOUT_MS } from '../../wire/process/cmd-client.ts';
import type { WireSetup } from '../../wire/setup.ts';
import { runWire } from '../../wire/world.ts';
import type { ScenarioResult } from '../audit-row.ts';
import { evidenceOf, verdictOf } from '../verdict.ts';
import type { ClientScenario } from './scenarios.ts';
import { planOf } from './request-marks.ts';
import { faultedRun, firstFailure, untested, waitedOutTimeout } from './faulted-run.ts';
import { libraryRun } from './library-run.ts';

export interface ScenarioRunOptions {
  /** How the client and server are named on a command line (`--client-cmd '…' --server …`). */
  sidesArgs: string;
  /** The agent's request timeout, real ms (default CMD_CLIENT_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The manifest's `defaultTimeoutMs` (ms, null for none; undefined when not declared). */
  declaredTimeoutMs?: number | null;
}

export async function runClientScenario(
  s: ClientScenario,
  setup: WireSetup,
  revision: Revision,
  o: ScenarioRunOptions,
): Promise<ScenarioResult> {
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
  const notTested = (why: string, evidence: string, plan = '(none)'): ScenarioResult => ({
    ...base,
    plan,
    verdict: 'not tested',
    why,
    evidence,
    library: { behaviour: 'not applicable', verdict: 'not tested', passed: true, why, marks: [], evidence },
  });
  if (!s.revisions.includes(revision)) {
    const why = `a ${s.revisions.join(', ')} scenario; the harness spoke ${revision}`;
    return notApplicable(why, why);
  }
  const reference = await runWire(setup, { workload: s.workload, plan: [] });
  const plan = planOf(s, reference);
  if ('missing' in plan)
    return notTested(
      `${plan.missing} (the client did not reach it)`,
      evidenceOf(reference, judge(reference, referenceOf(reference), []), 'wall'),
    );
  const ref = referenceOf(reference);
  const agent = await faultedRun(s, setup, plan, reference);
  const skip = untested(agent.history, agent.miss);
  if (skip) return notTested(skip, evidenceOf(agent.history, judge(agent.history, ref, []), 'wall'), describePlan(plan));
  const history = agent.history;
  const properties = s.judgedBy.map((p) => propertyByName(p)).filter((p): p is AnyFold => p !== undefined);
  const judgement = judge(history, ref, properties);
  const judged = verdictOf({ judgedBy: s.judgedBy }, judgement, history);
  const why =
    judged.why + (waitedOutTimeout(history, timeoutMs) ? `, after the client waited out its own ${timeoutMs / 1000} s timeout` : '');
  const refErrors = reference.entries.filter((e) => e.kind === 'end' && e.end !== 'result').length;
  const evidence = `${refErrors ? `(fault-free run: ${refErrors} call(s) without a result) ` : ''}${evidenceOf(history, judgement, 'wall')}${firstFailure(history)}`;
  const library = await libraryRun({
    scenario: s,
    setup,
    plan,
    reference,
    ref,
    properties,
    revision,
    agentTimeoutMs: timeoutMs,
    declaredTimeoutMs: o.declaredTimeoutMs,
  });
  return { ...base, plan: describePlan(plan), verdict: judged.verdict, why, evidence, library };
}

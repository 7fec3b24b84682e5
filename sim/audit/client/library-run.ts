// The library verdict's run: a scenario's plan again with the agent loop off and no request timeout
// given, so the library is judged with its own defaults (client-library.ts reads what it did). The
// audit's bound is the only limit: RUN_LIMIT_MS, ended LIBRARY_QUIET_MS after the fault acted once
// nothing is in flight; a call still pending then reads `never settled`, with the library's declared
// default timeout in the evidence. Apart from the agent's run (client/scenario-run.ts) because its
// bounds and its context (the declared default, the server's event ids) belong to the library only.
import type { History } from '../../core/history.ts';
import type { FaultPlan } from '../../core/plan.ts';
import { judge } from '../../../properties/judge.ts';
import type { referenceOf } from '../../../properties/outcomes.ts';
import type { AnyFold } from '../../../properties/fold.ts';
import type { Revision } from '../../../models/policies.ts';
import type { WireServerSpec, WireSetup } from '../../wire/setup.ts';
import { RUN_LIMIT_MS } from '../../wire/proxy-run.ts';
import { libraryVerdict } from '../client-library.ts';
import type { LibraryResult } from '../audit-row.ts';
import { evidenceOf } from '../verdict.ts';
import type { ClientScenario } from './scenarios.ts';
import { faultedRun, untested } from './faulted-run.ts';

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
export const runLimits = (timeoutMs: number) => ({ library: RUN_LIMIT_MS, agent: Math.min(RUN_LIMIT_MS, 6 * timeoutMs + 4000) });

/** The model server in a legacy revision numbers its SSE events (it can resume); the SDK servers keep no event store. */
function offersEventIds(server: WireServerSpec, revision: Revision): boolean {
  return server.kind === 'model' && revision === '2025-11-25';
}

export interface LibraryRunInput {
  scenario: ClientScenario;
  /** The agent's setup: the library run turns its loop and timeout off. */
  setup: WireSetup;
  plan: FaultPlan;
  reference: History;
  ref: ReturnType<typeof referenceOf>;
  properties: readonly AnyFold[];
  revision: Revision;
  /** The agent's request timeout, real ms (the library's run limit is derived from it). */
  agentTimeoutMs: number;
  /** The manifest's `defaultTimeoutMs`: ms, null for none, undefined when not declared. */
  declaredTimeoutMs: number | null | undefined;
}

/** The library alone on a scenario's plan, and its verdict (`not tested` when the run tested nothing). */
export async function libraryRun(i: LibraryRunInput): Promise<LibraryResult> {
  const alone: WireSetup = {
    ...i.setup,
    client: {
      ...i.setup.client,
      agentLoop: false,
      timeoutMs: null,
      runLimitMs: runLimits(i.agentTimeoutMs).library,
      quietEndMs: LIBRARY_QUIET_MS,
    } as WireSetup['client'],
  };
  const lib = await faultedRun(i.scenario, alone, i.plan, i.reference);
  const skip = untested(lib.history, lib.miss);
  const judgement = judge(lib.history, i.ref, i.properties);
  const evidence = evidenceOf(lib.history, judgement, 'wall');
  if (skip) return { behaviour: 'not applicable', verdict: 'not tested', passed: true, why: skip, marks: [], evidence };
  const context = {
    scenario: i.scenario.name,
    revision: i.revision,
    timeoutMs: i.declaredTimeoutMs ?? null,
    declaredTimeout: declaredText(i.declaredTimeoutMs),
    offersEventIds: offersEventIds(i.setup.server, i.revision),
  };
  return { ...libraryVerdict(lib.history, judgement, context), evidence };
}

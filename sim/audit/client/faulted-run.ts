// One faulted run of a client scenario, as both verdicts need it: the plan run again while the
// client's own request order puts something else on a marked request (client/request-marks.ts), and
// the reasons such a run tested nothing (an order that never held, a fault that did not act). Also how
// the agent's run reads when the client noticed its fault only at its own request timeout.
// Runs are on the wall clock: the times compared here are real milliseconds.
import type { History } from '../../core/history.ts';
import type { FaultPlan } from '../../core/plan.ts';
import type { WireSetup } from '../../wire/setup.ts';
import { runWire } from '../../wire/world.ts';
import { CLIENT_AUDIT_FAULTS, type ClientScenario } from './scenarios.ts';
import { orderMiss } from './request-marks.ts';

/** Faulted runs tried before a request order that never holds is reported as not applicable. */
export const ORDER_TRIES = 3;

/** Runs a scenario's plan until the marked requests carry what they did in the fault-free run. */
export async function faultedRun(
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
export function untested(history: History, miss: string | null): string | null {
  if (miss) return `the client's requests came in another order in ${ORDER_TRIES} faulted runs: ${miss}`;
  // Every fault must act: a cut stream whose resumption never came (no Last-Event-ID to strip) tested
  // only the cut, which stream-cut-call already does.
  const idle = history.entries.find((e) => e.kind === 'fault' && !e.applied);
  return idle?.kind === 'fault' ? `${idle.fault} did not act in this run: ${idle.detail.replace(/^skipped: /, '')}` : null;
}

/** How the client reported the fault, if it did: a result after a retry can hide a wait for its own timeout. */
export function firstFailure(h: History): string {
  const fault = h.entries.find((e) => e.kind === 'fault' && e.applied);
  const failed = h.entries.find((e) => e.kind === 'client' && e.note === 'attempt-failed');
  if (!fault || failed?.kind !== 'client' || failed.note !== 'attempt-failed') return '';
  return `; the client's error ${failed.t - fault.t} ms after the fault: ${failed.reason.slice(0, 60)}`;
}

/** A fault that is not a delay, first noticed by the client only when its own request timeout fired. */
export function waitedOutTimeout(h: History, timeoutMs: number): boolean {
  const fault = h.entries.find((e) => e.kind === 'fault' && e.applied);
  const failed = h.entries.find((e) => e.kind === 'client' && e.note === 'attempt-failed');
  if (fault?.kind !== 'fault' || fault.fault.startsWith('delay:') || failed?.kind !== 'client') return false;
  return failed.t - fault.t >= timeoutMs - 100;
}

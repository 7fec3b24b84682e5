// Works without faults, first: a combination whose fault-free runs fail a call (or whose sides
// cannot reach each other at all) is `broken without faults`, a class of its own. Its fault runs say
// nothing about mitigation (every call fails whatever the faults do), so a cell of it runs none, and
// the mitigation finder never proposes a change that leads to it (compare/mitigations.ts).
//
// Which fault-free runs: one workload per kind of step the cell's shape draws (a call, a call with
// progress, a list, a call to an idempotent tool, an overlapping call), alone and then all of them in
// one session: every step a drawn workload has is tried first in a fresh session and after others.
// A fault-free run is the reference every faulted run is judged against, so these runs are the
// judge's own references (the finder's are shared between combinations: search/random/reference-memo.ts).
import { speaks, type Combination } from '../../models/policies.ts';
import type { Reference } from '../../properties/outcomes.ts';
import type { HistoryEntry } from '../core/history.ts';
import { call, list, type Workload, type WorkloadStep } from '../core/workload.ts';
import type { InputShape } from '../search/random/arbitraries.ts';
import { referenceOf } from '../../properties/outcomes.ts';
import { runWorld, type WorldOptions } from '../world/world.ts';

export interface FailedCall {
  callId: number;
  /** How it ended: an error the client reported, or its deadline. */
  end: 'error' | 'deadline' | 'never';
  /** The client's error (absent for a deadline). */
  reason: string | null;
}

export interface BrokenWithoutFaults {
  /** In a designer's words: "the client speaks only 2026-07-28; the server only 2025-11-25". */
  reason: string;
  /** The fault-free run that shows it, and its calls that did not return a result. */
  workload: Workload;
  failed: FailedCall[];
}

/** The fault-free runs of one combination: each workload's reference (what each call returned) and, when
 *  one failed, its history (for the reason). */
export interface FaultFreeRuns {
  reference(workload: Workload): Reference;
  history(workload: Workload): readonly HistoryEntry[];
}

/** Fault-free runs in the model world, each run when asked (a cell asks a handful). */
export function worldFaultFree(c: Combination, world: WorldOptions): FaultFreeRuns {
  const history = (workload: Workload) => runWorld({ combination: c, workload, plan: [], schedule: [] }, world);
  return { reference: (w) => referenceOf(history(w)), history: (w) => history(w).entries };
}

/** The workloads tried without faults for a cell drawing from `shape`: each kind of step it draws alone,
 *  then all of them in one session (as long as the shape allows). */
export function faultFreeWorkloads(shape: InputShape = {}): Workload[] {
  const w = shape.workload ?? {};
  const kinds: WorkloadStep[] = [];
  if (w.progress !== 'always') kinds.push(call());
  kinds.push(call(true));
  if (w.lists) kinds.push(list());
  if (w.idempotent) kinds.push(call(w.progress === 'always', false, true));
  const singles = kinds.map((k) => [k]);
  const max = w.maxCalls ?? 5;
  const mixed = [...kinds];
  if (w.overlap) mixed.push({ ...kinds[0]!, overlap: true });
  while (mixed.length < Math.min(max, 2 * kinds.length)) mixed.push(kinds[mixed.length % kinds.length]!);
  return mixed.length > 1 ? [...singles, mixed.slice(0, Math.max(max, 1))] : singles;
}

/** What a side speaks, as the reason says it. */
const only = (v: string) => (v === 'dual' || v === 'negotiate' ? 'both revisions' : `only ${v}`);

/** The reason a broken combination gives, from its knobs where its sides share no revision, else from
 *  the first failed call. */
function reasonOf(c: Combination, workload: Workload, first: FailedCall): string {
  if (!speaks(c, '2025-11-25') && !speaks(c, '2026-07-28'))
    return `the client speaks ${only(c.client.protocol)}; the server ${only(c.server.protocol)}`;
  const step = workload[first.callId];
  const what = step?.method === 'tools/list' ? 'a tools/list' : step?.progress ? 'a tools/call with progress' : 'a tools/call';
  const how = first.end === 'error' ? `fails (${first.reason})` : 'never returns (until its deadline)';
  return `${what} ${how} with no fault at all`;
}

/** The calls of a fault-free run that did not return a result. */
function failedCalls(entries: readonly HistoryEntry[]): FailedCall[] {
  const out: FailedCall[] = [];
  for (const e of entries) {
    if (e.kind !== 'end' || e.end === 'result') continue;
    out.push({ callId: e.callId, end: e.end, reason: e.end === 'error' ? String(e.reason) : null });
  }
  return out.sort((a, b) => a.callId - b.callId);
}

/** Null when every call of every fault-free workload for `shape` returns a result; else why not. A
 *  designer's policy that throws here throws out of this function (the caller's policy-error path). */
export function brokenWithoutFaults(c: Combination, runs: FaultFreeRuns, shape: InputShape = {}): BrokenWithoutFaults | null {
  for (const workload of faultFreeWorkloads(shape)) {
    const reference = runs.reference(workload);
    if (workload.every((_, i) => reference.has(i))) continue;
    const failed = failedCalls(runs.history(workload));
    // A reference without a call's result is a call that ended otherwise: the history names it.
    const first = failed[0] ?? { callId: workload.findIndex((_, i) => !reference.has(i)), end: 'never' as const, reason: null };
    return { reason: reasonOf(c, workload, first), workload, failed };
  }
  return null;
}

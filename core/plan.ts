// Fault plans: which fault fires at which point of the run. Firing points are absolute (the n-th
// request the network carries, or just before it), so a plan shrinks well: drop a fault, lower an
// index. A plan is kept sorted by firing point, a fault that fires *before* request n ahead of one
// *at* request n, so that a shrunk plan always reads in time order.
import { firesBefore, type FaultName } from '../models/faults.ts';

export interface PlannedFault {
  fault: FaultName;
  /** The index of the request the fault fires at (or just before). */
  at: number;
}

export type FaultPlan = readonly PlannedFault[];

/** Position on the run's timeline: before request n sorts ahead of at request n. */
export function firingPoint(f: PlannedFault): number {
  return f.at * 2 + (firesBefore(f.fault) ? 0 : 1);
}

/** Stable: faults at the same point keep the order they were given in. */
export function sortPlan(plan: readonly PlannedFault[]): PlannedFault[] {
  // A stable sort by firing point. A plan already in order (one fault, or none, or one that check or
  // a search has sorted: most) is copied as it is, without the sort's three arrays.
  let sorted = true;
  for (let i = 1; i < plan.length && sorted; i++) sorted = firingPoint(plan[i - 1]!) <= firingPoint(plan[i]!);
  if (sorted) return plan.slice();
  return plan
    .map((f, i) => ({ f, i }))
    .sort((a, b) => firingPoint(a.f) - firingPoint(b.f) || a.i - b.i)
    .map(({ f }) => f);
}

export function describeFault(f: PlannedFault): string {
  return `${f.fault} ${firesBefore(f.fault) ? 'before' : 'at'} request ${f.at}`;
}

export function describePlan(plan: FaultPlan): string {
  return plan.length === 0 ? '(no faults)' : plan.map(describeFault).join(', then ');
}

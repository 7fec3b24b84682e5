// Fault plans: which fault fires at which point of the run. Firing points are absolute (the n-th
// request the network carries, or just before it), so a plan shrinks well: drop a fault, lower an
// index. A plan is kept sorted by firing point, a fault that fires *before* request n ahead of one
// *at* request n, so that a shrunk plan always reads in time order.
import { firesBefore, type FaultName } from '../../models/faults.ts';

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
  // A stable insertion sort by firing point, each point computed once: a plan is short (check draws
  // at most 8 faults) and every drawn plan is sorted, most of them already in order or nearly so.
  const n = plan.length;
  const out = plan.slice();
  if (n < 2) return out;
  const points = new Array<number>(n);
  for (let i = 0; i < n; i++) points[i] = firingPoint(out[i]!);
  for (let i = 1; i < n; i++) {
    const f = out[i]!;
    const p = points[i]!;
    let j = i - 1;
    for (; j >= 0 && points[j]! > p; j--) {
      out[j + 1] = out[j]!;
      points[j + 1] = points[j]!;
    }
    out[j + 1] = f;
    points[j + 1] = p;
  }
  return out;
}

export function describeFault(f: PlannedFault): string {
  return `${f.fault} ${firesBefore(f.fault) ? 'before' : 'at'} request ${f.at}`;
}

export function describePlan(plan: FaultPlan): string {
  return plan.length === 0 ? '(no faults)' : plan.map(describeFault).join(', then ');
}

// Every fault plan up to a depth: each fault of an alphabet at each firing point, as multisets in
// firing order (a plan and its permutations are one plan). The bounded proof of absence beside
// random search; `explore` builds on it with state deduplication.
import type { FaultName } from '../../../models/faults.ts';
import { firingPoint, type FaultPlan, type PlannedFault } from '../../core/plan.ts';

export function* enumeratePlans(alphabet: readonly FaultName[], maxPoint: number, depth: number): Generator<FaultPlan> {
  const items: PlannedFault[] = [];
  for (let at = 0; at <= maxPoint; at++) for (const fault of alphabet) items.push({ fault, at });
  items.sort((a, b) => firingPoint(a) - firingPoint(b));
  function* extend(plan: PlannedFault[], from: number): Generator<FaultPlan> {
    yield plan;
    if (plan.length === depth) return;
    for (let i = from; i < items.length; i++) yield* extend([...plan, items[i]!], i);
  }
  yield* extend([], 0);
}

export function countPlans(alphabet: readonly FaultName[], maxPoint: number, depth: number): number {
  let n = 0;
  for (const _ of enumeratePlans(alphabet, maxPoint, depth)) n++;
  return n;
}

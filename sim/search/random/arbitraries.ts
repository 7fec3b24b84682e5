// fast-check arbitraries for the inputs of a run: a fault plan, a workload and a schedule.
// Plans are drawn unsorted and presented sorted (fast-check never reorders an array, so shrinking
// the unsorted source keeps a shrunk plan in time order). Firing points are absolute request indices.
import fc from 'fast-check';
import { FAULT_VOCABULARY, type FaultName } from '../../../models/faults.ts';
import { sortPlan, type FaultPlan, type PlannedFault } from '../../core/plan.ts';
import { withRenumberingShrink } from './plan-shrink.ts';
import type { Workload, WorkloadStep } from '../../core/workload.ts';

/** What `check` draws by default: workloads of up to this many calls, plans of up to this many faults
 *  (explore's verdict lines compare their own bounds with these). */
export const CHECK_MAX_CALLS = 5;
export const CHECK_MAX_FAULTS = 8;
export interface PlanShape {
  /** The fault alphabet (default: the whole vocabulary). */
  faults?: readonly FaultName[];
  /** The highest request index a fault may fire at. A five-call run carries 7 to 20 requests. */
  maxPoint?: number;
  maxFaults?: number;
}

export interface WorkloadShape {
  minCalls?: number;
  maxCalls?: number;
  /** Let calls overlap (up to three in flight). The seed assertions use one call at a time. */
  overlap?: boolean;
  /** Mix in `tools/list` steps. */
  lists?: boolean;
  /** Every tools/call asks for progress (record 003's call). */
  progress?: 'any' | 'always';
  /** Mix in calls to a tool annotated `idempotentHint: true` (what `client.reissue=idempotent-only`
   *  and `at-most-once` tell apart). Off by default, so that other workloads draw as before. */
  idempotent?: boolean;
}

export function plannedFault(faults: readonly FaultName[] = FAULT_VOCABULARY, maxPoint = 12): fc.Arbitrary<PlannedFault> {
  return fc.record({ fault: fc.constantFrom(...faults), at: fc.nat({ max: maxPoint }) });
}

export function faultPlan(shape: PlanShape = {}): fc.Arbitrary<FaultPlan> {
  const { faults = FAULT_VOCABULARY, maxPoint = 12, maxFaults = CHECK_MAX_FAULTS } = shape;
  // size 'max': without it fast-check draws arrays far shorter than maxFaults. The renumbering
  // shrink (search/random/plan-shrink.ts) gets past the one local minimum absolute indices leave.
  return withRenumberingShrink(fc.array(plannedFault(faults, maxPoint), { maxLength: maxFaults, size: 'max' })).map(sortPlan);
}

export function workloadStep(shape: WorkloadShape = {}): fc.Arbitrary<WorkloadStep> {
  const method = shape.lists
    ? fc.oneof({ weight: 4, arbitrary: fc.constant('tools/call' as const) }, { weight: 1, arbitrary: fc.constant('tools/list' as const) })
    : fc.constant('tools/call' as const);
  const step = fc
    .record({
      method,
      progress: shape.progress === 'always' ? fc.constant(true) : fc.boolean(),
      overlap: shape.overlap ? fc.boolean() : fc.constant(false),
    })
    .map((s): WorkloadStep => (s.method === 'tools/list' ? { ...s, progress: false } : s));
  if (!shape.idempotent) return step;
  // Shrinks toward a side-effecting tool (false), the case at-most-once is about.
  return fc.tuple(step, fc.boolean()).map(([s, idempotent]) => (idempotent && s.method === 'tools/call' ? { ...s, idempotent: true } : s));
}

export function workload(shape: WorkloadShape = {}): fc.Arbitrary<Workload> {
  const { minCalls = 1, maxCalls = CHECK_MAX_CALLS } = shape;
  // Drawn with minLength 0 and padded with plain calls: fast-check shrinks an array with a non-zero
  // minLength only by dropping its first items, which leaves workloads longer than they need be.
  const pad: WorkloadStep = { method: 'tools/call', progress: shape.progress === 'always', overlap: false };
  return fc
    .array(workloadStep(shape), { maxLength: maxCalls, size: 'max' })
    .map((steps) => (steps.length >= minCalls ? steps : [...steps, ...Array.from({ length: minCalls - steps.length }, () => pad)]));
}

/** Tie-breaking picks among events due at the same instant (see world/clock.ts). */
export function schedule(): fc.Arbitrary<number[]> {
  return fc.array(fc.nat({ max: 3 }), { maxLength: 6 });
}

export interface Input {
  plan: FaultPlan;
  workload: Workload;
  schedule: number[];
}

export interface InputShape {
  plan?: PlanShape;
  workload?: WorkloadShape;
}

/** What `inputs(shape)` draws from, every default filled in, as one string: two shapes with the same
 *  key draw the same sequence from the same seed (the mitigation finder reuses a cell's runs by it).
 *  It lists every field the arbitraries above read; one added there belongs here too. */
export function shapeKey(shape: InputShape = {}): string {
  const { faults = FAULT_VOCABULARY, maxPoint = 12, maxFaults = CHECK_MAX_FAULTS } = shape.plan ?? {};
  const w = shape.workload ?? {};
  return JSON.stringify([
    faults,
    maxPoint,
    maxFaults,
    w.minCalls ?? 1,
    w.maxCalls ?? CHECK_MAX_CALLS,
    Boolean(w.overlap),
    Boolean(w.lists),
    w.progress === 'always',
    Boolean(w.idempotent),
  ]);
}

/** The arguments of every property: one tuple, so `fc.sample` and `fc.check` draw the same sequence. */
export function inputs(shape: InputShape = {}): fc.Arbitrary<[FaultPlan, Workload, number[]]> {
  return fc.tuple(faultPlan(shape.plan), workload(shape.workload), schedule());
}

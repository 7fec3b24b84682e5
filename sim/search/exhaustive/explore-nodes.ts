// What the explorer (explore.ts) keeps per state: a plan as a persistent list, a state on the
// depth-first stack, a base its frontier entries fork; and the canonical order of an alphabet.
//
// States are merged by fingerprint: a 64-bit digest of the state's key (world/fork.ts `fingerprint`,
// core/digest.ts; the key is never written out, nor kept). Two different states merge only if their
// fingerprints collide: by the birthday bound, with probability at most n²/2^65 over n distinct
// states of one job (taking the digest as uniform, which a non-cryptographic hash is only close to),
// below 3·10⁻⁸ for a million states and 3·10⁻⁶ for ten million; the bench prints the bound for its
// largest job.
import { firesBefore, type FaultName } from '../../../models/faults.ts';
import type { FoldSet } from '../../../properties/fold-set.ts';
import { sortPlan, type FaultPlan, type PlannedFault } from '../../core/plan.ts';
import type { ForkableWorld } from '../../world/fork.ts';

/** A plan as a persistent list: nodes share their prefixes. */
export interface PlanLink {
  fault: PlannedFault;
  prev: PlanLink | null;
}

/** A state (no fault chosen yet for its next request) being expanded: on the depth-first stack. */
export interface StateNode {
  /** The state's id in the path counter. */
  id: number;
  /** Paused before request `world.nextRequest`; never resumed itself, only forked. */
  world: ForkableWorld;
  folds: FoldSet;
  plan: PlanLink | null;
  cost: number;
}

/** A state whose next request gets faults in later levels: what its frontier entries fork. */
export interface Base {
  /** Null once dropped (more than `liveWorlds` kept): re-created from `plan` by replay. */
  world: ForkableWorld | null;
  folds: FoldSet | null;
  plan: PlanLink | null;
  request: number;
  /** Frontier entries of this base not expanded yet: at none, no more can come, and it is released. */
  pending: number;
}

/** The plan a link ends, in firing order. */
export function planOf(link: PlanLink | null): FaultPlan {
  const out: PlannedFault[] = [];
  for (let l = link; l; l = l.prev) out.push(l.fault);
  return sortPlan(out.reverse());
}

/** Canonical order of faults at one request: those fired before it first, then alphabet order. */
export function orderAlphabet(faults: readonly FaultName[]): FaultName[] {
  return [...faults].sort((a, b) => Number(firesBefore(b)) - Number(firesBefore(a)) || faults.indexOf(a) - faults.indexOf(b));
}

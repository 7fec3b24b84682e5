// The one definition of "a call ended after a fault acted": some call's `end` entry is at or after
// the instant of the first fault that changed something (`applied`). The silent-failure properties
// count as reached only then: before any fault acts, nothing they guard against can happen.
// A part of several folds, not a property itself.
import type { HistoryEntry } from '../sim/core/history.ts';

export interface AfterFault {
  /** A fault has acted. */
  readonly applied: boolean;
  /** When the latest call ended (-1: none yet): an end at the very instant the first fault acts counts. */
  readonly lastEnd: number;
  readonly reached: boolean;
}

/** The entry kinds `stepAfterFault` reads (a fold built on it reads these too). */
export const AFTER_FAULT_READS = ['fault', 'end'] as const;

export const NO_FAULT_YET: AfterFault = { applied: false, lastEnd: -1, reached: false };

export function stepAfterFault(s: AfterFault, e: HistoryEntry): AfterFault {
  if (s.reached) return s;
  if (e.kind === 'fault' && e.applied && !s.applied) return { applied: true, lastEnd: s.lastEnd, reached: s.lastEnd === e.t };
  if (e.kind === 'end') return { applied: s.applied, lastEnd: e.t, reached: s.applied };
  return s;
}

/** Reached; a fault acted; a call ended just now (a fault acting now would reach it); neither. */
export function afterFaultKey(s: AfterFault, now: number): string {
  return s.reached ? 'R' : s.applied ? 'A' : s.lastEnd === now ? 'e' : '-';
}

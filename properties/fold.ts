// A property is a fold over a history: `init` from the fault-free run's answers, one `step` per
// entry, a `verdict` at the end, and a `key` that says everything the rest of the run can still
// change that verdict with. Whole-history checking is a reduce over the same object; exhaustive
// exploration (search/exhaustive/explore.ts) steps it as the world writes entries and merges two
// worlds only when their keys agree. Each property is written once, here in this shape.
//
// `step` returns the next state and never changes the one it was given: forked worlds share states.
// A designer may still write the simple form, `check(history, outcomes)`; it is wrapped as a fold
// that keeps the whole history (sound, but its key is that history, so exploration merges nothing).
import type { History, HistoryEntry } from '../sim/core/history.ts';
import { callOutcomes, type CallOutcome, type Reference } from './outcomes.ts';

export interface PropertyVerdict {
  holds: boolean;
  /** The property's situation arose (a property that holds only because nothing tested it is vacuous). */
  reached: boolean;
  /** When violated: why, in one line. */
  why?: string;
}

/**
 * What kind of failure a violation is, for what reads properties by kind (the audit's and the handler
 * check's verdicts, the migration view): `silent`, the agent is never told (an empty or wrong result,
 * a hang, a duplicate run); `invariant`, a state the protocol promises does not hold (it may or may not
 * show to the agent); `recovery`, the session does not heal once the faults stop (a loud outage).
 */
export const PROPERTY_FAMILIES = ['silent', 'invariant', 'recovery'] as const;
export type PropertyFamily = (typeof PROPERTY_FAMILIES)[number];

/** What every property says of itself besides how it judges (properties.ts gives the built-ins theirs). */
export interface PropertyInfo {
  name: string;
  holdsWhen: string;
  /** Absent: `invariant` (`familyOf`). */
  family?: PropertyFamily;
  /** The short head the terminal prints over its column; absent: the name (`columnOf`). */
  column?: string;
  /** It judges the runs of side-effecting tools: only where the calls go to a tool known to have a side
   *  effect (the model's; an audit's named tool) does a verdict mean anything, so the audit and the
   *  handler check, which do not know a server's tools, leave it out of what they judge by default. */
  sideEffects?: true;
}

export const familyOf = (p: PropertyInfo): PropertyFamily => p.family ?? 'invariant';
export const columnOf = (p: PropertyInfo): string => p.column ?? p.name;

/** A history without its entries: what a run was (combination, workload, plan, schedule). */
export type HistoryFrame = Omit<History, 'entries'>;

export interface PropertyFold<S = unknown> extends PropertyInfo {
  init(reference: Reference, frame: HistoryFrame): S;
  step(state: S, entry: HistoryEntry): S;
  verdict(state: S): PropertyVerdict;
  /** The entry kinds `step` reads: it returns any other entry's state unchanged, so a fold set
   *  (fold-set.ts) does not step it there. Absent: every entry. test/properties/fold-reads.test.ts
   *  holds the built-ins to what they declare. */
  reads?: readonly HistoryEntry['kind'][];
  /** What the rest of the run can still change the verdict with, canonically; times relative to `now`.
   *  (`why` may name the path that got here: it is not part of the key.) */
  key(state: S, now: number): string;
}

/** A designer's property in its simple form: a function of the whole history and its outcomes. */
export interface CheckProperty extends PropertyInfo {
  check(history: History, outcomes: readonly CallOutcome[]): PropertyVerdict;
}

/** A fold of any state type: callers only hand a state back to the fold that made it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFold = PropertyFold<any>;

export type Property = AnyFold | CheckProperty;

export function isCheckProperty(p: Property): p is CheckProperty {
  return 'check' in p && typeof p.check === 'function';
}

/** The entries so far, newest first, sharing their tails between forks. */
interface Entries {
  entry: HistoryEntry;
  prev: Entries | null;
}

interface WholeHistoryState {
  reference: Reference;
  frame: HistoryFrame;
  entries: Entries | null;
}

function entriesOf(s: WholeHistoryState): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  for (let l = s.entries; l; l = l.prev) out.push(l.entry);
  return out.reverse();
}

const wrapped = new WeakMap<CheckProperty, PropertyFold<WholeHistoryState>>();

/** The simple form as a fold. Its key is the whole history, absolute times included: the check may
 *  read anything in it, so only identical histories merge. */
export function wholeHistory(p: CheckProperty): PropertyFold<WholeHistoryState> {
  let fold = wrapped.get(p);
  if (!fold) {
    const { name, holdsWhen, family, column, sideEffects } = p;
    fold = {
      name,
      holdsWhen,
      ...(family && { family }),
      ...(column && { column }),
      ...(sideEffects && { sideEffects }),
      init: (reference, frame) => ({ reference, frame, entries: null }),
      step: (s, entry) => ({ ...s, entries: { entry, prev: s.entries } }),
      verdict(s) {
        const history: History = { ...s.frame, entries: entriesOf(s) };
        return p.check(history, callOutcomes(history, s.reference));
      },
      key: (s) => JSON.stringify(entriesOf(s)),
    };
    wrapped.set(p, fold);
  }
  return fold;
}

/** Any property as a fold (the same object for the same property). */
export function asFold(p: Property): AnyFold {
  return isCheckProperty(p) ? wholeHistory(p) : p;
}

/** Whole-history checking: the fold reduced over the history's entries. */
export function checkHistory(p: Property, history: History, reference: Reference): PropertyVerdict {
  const fold = asFold(p);
  const { entries, ...frame } = history;
  let state = fold.init(reference, frame);
  for (const e of entries) state = fold.step(state, e);
  return fold.verdict(state);
}

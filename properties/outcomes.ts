// Each call's outcome, judged against the same workload run with no faults: `ok`, `error`,
// `silent-empty` (a well-formed result that differs from the fault-free one, with no error) or
// `silent-hang` (ended only by the deadline, or never, though the server finished the call and its
// answer reached the client or was lost without a signal; a deadline that fires while the network
// still holds the answer back is a timeout the client reports: `error`).
import type { EndEntry, History, HistoryEntry } from '../core/history.ts';

export const OUTCOMES = ['ok', 'error', 'silent-empty', 'silent-hang'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface CallOutcome {
  callId: number;
  outcome: Outcome;
  invokedAt: number;
  endedAt: number;
  end: EndEntry;
}

/** What each call of the fault-free run returned, by call id. */
export type Reference = ReadonlyMap<number, string>;

/** The reference as the fault-free run goes (no history kept); `referenceOf` is this fold over a history. */
export class ReferenceFold {
  readonly reference = new Map<number, string>();

  push(e: HistoryEntry): void {
    if (e.kind === 'end' && e.end === 'result') this.reference.set(e.callId, contentJson(e.content));
  }
}

export function referenceOf(history: History): Reference {
  const fold = new ReferenceFold();
  for (const e of history.entries) fold.push(e);
  return fold.reference;
}

/** A result's content as JSON, made once per content object: several folds judge the same `end`
 *  entry (the outcomes, both silent-call properties, `recovers`), and stringifying it for each was a
 *  tenth of a judgement. Contents are never changed once a call has ended. */
const contentJsonOf = new WeakMap<object, string>();

export function contentJson(content: readonly unknown[]): string {
  let json = contentJsonOf.get(content);
  if (json === undefined) contentJsonOf.set(content, (json = JSON.stringify(content)));
  return json;
}

export function outcomeOf(end: EndEntry, reference: Reference): Outcome {
  switch (end.end) {
    case 'result':
      return reference.get(end.callId) === contentJson(end.content) ? 'ok' : 'silent-empty';
    case 'error':
      return 'error';
    case 'deadline':
    case 'never':
      return end.serverFinished && (end.answer === 'delivered' || end.answer === 'lost') ? 'silent-hang' : 'error';
  }
}

/** Each call's outcome as the run goes: entry by entry, with no history kept (a history-free
 *  random run, search/random/check-runner.ts); `callOutcomes` is this fold over a whole history. */
export class OutcomesFold {
  private readonly invoked = new Map<number, number>();
  private readonly ends: CallOutcome[] = [];

  constructor(private readonly reference: Reference) {}

  push(e: HistoryEntry): void {
    if (e.kind === 'invoke') this.invoked.set(e.callId, e.t);
    else if (e.kind === 'end')
      this.ends.push({
        callId: e.callId,
        outcome: outcomeOf(e, this.reference),
        invokedAt: this.invoked.get(e.callId) ?? 0,
        endedAt: e.t,
        end: e,
      });
  }

  /** The outcomes so far, by call id. */
  outcomes(): CallOutcome[] {
    return this.ends.sort((a, b) => a.callId - b.callId);
  }
}

export function callOutcomes(history: History, reference: Reference): CallOutcome[] {
  const fold = new OutcomesFold(reference);
  for (const e of history.entries) fold.push(e);
  return fold.outcomes();
}

export function countOutcomes(outcomes: readonly CallOutcome[], into: Record<Outcome, number> = emptyCounts()): Record<Outcome, number> {
  for (const o of outcomes) into[o.outcome]++;
  return into;
}

export function emptyCounts(): Record<Outcome, number> {
  return { ok: 0, error: 0, 'silent-empty': 0, 'silent-hang': 0 };
}

// Each call's outcome, judged against the same workload run with no faults: `ok`, `error`,
// `silent-empty` (a well-formed result that differs from the fault-free one, with no error) or
// `silent-hang` (ended only by the deadline, or never, though the server finished the call and its
// answer reached the client or was lost without a signal; a deadline that fires while the network
// still holds the answer back is a timeout the client reports: `error`).
import type { EndEntry, History, HistoryEntry } from '../sim/core/history.ts';

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
    if (e.kind === 'end' && e.end === 'result') this.reference.set(e.callId, JSON.stringify(e.content));
  }
}

export function referenceOf(history: History): Reference {
  const fold = new ReferenceFold();
  for (const e of history.entries) fold.push(e);
  return fold.reference;
}

/** Whether a result's content is the reference's (its JSON, as the reference keeps it). Contents are
 *  new objects in every run and several folds judge the same `end` entry (the outcomes, both
 *  silent-call properties, `recovers`): stringifying it for each was a tenth of a judgement. A
 *  content of the usual shape (text items) is compared item by item with the reference's parsed
 *  once; anything else is stringified, which is what the comparison means. */
function sameContent(reference: Reference, callId: number, content: readonly unknown[]): boolean {
  const json = reference.get(callId);
  // Anything unusual (no reference, no content, a reference of another shape) is compared as JSON.
  if (json === undefined || typeof content !== 'object' || content === null) return json === JSON.stringify(content);
  const texts = textsOf(json);
  if (texts === null || Object.getPrototypeOf(content) !== Array.prototype || 'toJSON' in content) return json === JSON.stringify(content);
  // An array's JSON has one item per element: another length is another JSON.
  if (content.length !== texts.length) return false;
  for (let i = 0; i < texts.length; i++) {
    const item = content[i] as Record<string, unknown> | null;
    if (!isText(item)) return json === JSON.stringify(content);
    if (item.type !== texts[i]!.type || item.text !== texts[i]!.text) return false;
  }
  return true;
}

interface Text {
  type: string;
  text: string;
}

/** A plain `{ type, text }` of two strings, its keys in that order: its JSON is the two strings'. */
function isText(x: unknown): x is Text {
  if (typeof x !== 'object' || x === null || Object.getPrototypeOf(x) !== Object.prototype) return false;
  let n = 0;
  for (const k in x) {
    if ((n === 0 && k !== 'type') || (n === 1 && k !== 'text') || n > 1) return false;
    n++;
  }
  const t = x as Text;
  return n === 2 && typeof t.type === 'string' && typeof t.text === 'string';
}

/** A reference's JSON parsed to its text items, once per JSON string; null if it is not a list of them. */
const parsed = new Map<string, readonly Text[] | null>();

function textsOf(json: string): readonly Text[] | null {
  let texts = parsed.get(json);
  if (texts === undefined) {
    const value: unknown = JSON.parse(json);
    texts = Array.isArray(value) && value.every(isText) ? value : null;
    // References are a few strings per workload; a bound keeps a long process's cache small.
    if (parsed.size > 10_000) parsed.clear();
    parsed.set(json, texts);
  }
  return texts;
}

/** The last entry judged and its outcome: the outcomes fold, both silent-call properties and
 *  `recovers` judge the same `end` entry one after another (entries are immutable data). */
let lastEnd: EndEntry | null = null;
let lastReference: Reference | null = null;
let lastOutcome: Outcome = 'ok';

export function outcomeOf(end: EndEntry, reference: Reference): Outcome {
  if (end === lastEnd && reference === lastReference) return lastOutcome;
  const outcome = judgeEnd(end, reference);
  lastEnd = end;
  lastReference = reference;
  lastOutcome = outcome;
  return outcome;
}

function judgeEnd(end: EndEntry, reference: Reference): Outcome {
  switch (end.end) {
    case 'result':
      return sameContent(reference, end.callId, end.content) ? 'ok' : 'silent-empty';
    case 'error':
      return 'error';
    case 'deadline':
    case 'never':
      return end.serverFinished && (end.answer === 'delivered' || end.answer === 'lost') ? 'silent-hang' : 'error';
  }
}

/** The entry kinds OutcomesFold reads. */
export const OUTCOMES_READ: readonly HistoryEntry['kind'][] = ['invoke', 'end'];

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

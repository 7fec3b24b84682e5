// Everything the oracles say about one history: each call's outcome and each property's verdict.
import type { History } from '../core/history.ts';
import { checkHistory, isCheckProperty, type Property, type PropertyVerdict } from './fold.ts';
import { callOutcomes, type CallOutcome, type Reference } from './outcomes.ts';
import { PROPERTIES } from './properties.ts';

export interface Judgement {
  outcomes: CallOutcome[];
  verdicts: Record<string, PropertyVerdict>;
}

export function judge(history: History, reference: Reference, properties: readonly Property[] = PROPERTIES): Judgement {
  const outcomes = callOutcomes(history, reference);
  const verdicts: Record<string, PropertyVerdict> = {};
  // A simple-form property is judged whole, with the outcomes already at hand: what its fold (fold.ts) does.
  for (const p of properties) verdicts[p.name] = isCheckProperty(p) ? p.check(history, outcomes) : checkHistory(p, history, reference);
  return { outcomes, verdicts };
}

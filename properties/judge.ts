// Everything the oracles say about one history: each call's outcome and each property's verdict.
import type { History } from '../core/history.ts';
import { callOutcomes, type CallOutcome, type Reference } from './outcomes.ts';
import { PROPERTIES, type Property, type PropertyVerdict } from './properties.ts';

export interface Judgement {
  outcomes: CallOutcome[];
  verdicts: Record<string, PropertyVerdict>;
}

export function judge(history: History, reference: Reference, properties: readonly Property[] = PROPERTIES): Judgement {
  const outcomes = callOutcomes(history, reference);
  const verdicts: Record<string, PropertyVerdict> = {};
  for (const p of properties) verdicts[p.name] = p.check(history, outcomes);
  return { outcomes, verdicts };
}

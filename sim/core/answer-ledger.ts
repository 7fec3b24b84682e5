// What became of each request's answer, as the network saw it: held back in transit, delivered,
// or lost (its final event cut off), and whether the server finished the call it carried. A call
// that ends by the deadline or never is judged with this (`end.answer`, `end.serverFinished`). One
// array of flags indexed by request, so a world's state that includes a ledger clones like the rest
// of it (world/state.ts copies arrays); the model world and the msw fault network
// (wire/net/fault-network.ts) keep one each. (Four sets of request numbers were a twentieth of a run.)
import type { Answer } from './history.ts';

const LOST = 1;
const IN_TRANSIT = 2;
const DELIVERED = 4;
const FINISHED = 8;

export interface AnswerLedger {
  /** Per request, the flags above (a hole is none of them). */
  answers: number[];
}

export function emptyLedger(): AnswerLedger {
  return { answers: [] };
}

/** The response left the server (or the load balancer); `lost` when a fault kept its answer from the client. */
export function answerSent(ledger: AnswerLedger, req: number, lost: boolean): void {
  ledger.answers[req] = (ledger.answers[req] ?? 0) | IN_TRANSIT | (lost ? LOST : 0);
}

export function answerDelivered(ledger: AnswerLedger, req: number): void {
  ledger.answers[req] = ((ledger.answers[req] ?? 0) & ~IN_TRANSIT) | DELIVERED;
}

/** The server finished the call request `req` carried (its result left the server). */
export function serverFinished(ledger: AnswerLedger, req: number): void {
  ledger.answers[req] = (ledger.answers[req] ?? 0) | FINISHED;
}

export function answerOf(ledger: AnswerLedger, req: number): Answer {
  const a = ledger.answers[req] ?? 0;
  if (a & LOST) return 'lost';
  if (a & IN_TRANSIT) return 'in-transit';
  if (a & DELIVERED) return 'delivered';
  return 'none';
}

export function finishedBy(ledger: AnswerLedger, req: number): boolean {
  return ((ledger.answers[req] ?? 0) & FINISHED) !== 0;
}

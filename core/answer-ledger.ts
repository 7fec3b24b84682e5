// What became of each request's answer, as the network saw it: held back in transit, delivered,
// or lost (its final event cut off), and whether the server finished the call it carried. A call
// that ends by the deadline or never is judged with this (`end.answer`, `end.serverFinished`). Plain
// sets, so a world's state that includes a ledger clones like the rest of it (world/state.ts); the
// model world and the msw fault network (wire/fault-network.ts) keep one each.
import type { Answer } from './history.ts';

export interface AnswerLedger {
  inTransit: Set<number>;
  delivered: Set<number>;
  lost: Set<number>;
  finished: Set<number>;
}

export function emptyLedger(): AnswerLedger {
  return { inTransit: new Set(), delivered: new Set(), lost: new Set(), finished: new Set() };
}

/** The response left the server (or the load balancer); `lost` when a fault kept its answer from the client. */
export function answerSent(ledger: AnswerLedger, req: number, lost: boolean): void {
  if (lost) ledger.lost.add(req);
  ledger.inTransit.add(req);
}

export function answerDelivered(ledger: AnswerLedger, req: number): void {
  ledger.inTransit.delete(req);
  ledger.delivered.add(req);
}

/** The server finished the call request `req` carried (its result left the server). */
export function serverFinished(ledger: AnswerLedger, req: number): void {
  ledger.finished.add(req);
}

export function answerOf(ledger: AnswerLedger, req: number): Answer {
  if (ledger.lost.has(req)) return 'lost';
  if (ledger.inTransit.has(req)) return 'in-transit';
  if (ledger.delivered.has(req)) return 'delivered';
  return 'none';
}

export function finishedBy(ledger: AnswerLedger, req: number): boolean {
  return ledger.finished.has(req);
}

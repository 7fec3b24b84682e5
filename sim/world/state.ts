// Everything a running world changes, as one plain record, and the one function that copies it
// for a fork (world/fork.ts). A field added here is cloned by `cloneState` without further ado:
// sets, maps and arrays are copied, the event queue clones itself, and everything else is a primitive or
// immutable data (machine snapshots, queued items and pending effects are never mutated, so forks
// share them). test/sim/world/state.test.ts holds every key to that.
import type { AnswerLedger } from '../core/answer-ledger.ts';
import type { HttpRequest, HttpResponse } from '../../models/messages.ts';
import type { ClientEffect, ClientEvent } from '../../models/client-context.ts';
import type { FaultName } from '../../models/faults.ts';
import { EventQueue } from './clock.ts';
import type { Stepped } from './engine/step.ts';

export type Item =
  | { to: 'client'; event: ClientEvent }
  | { to: 'server'; req: number; request: HttpRequest }
  | { to: 'deliver'; req: number; response: HttpResponse };

/** A client step whose effects are being performed; a paused world stops before a `send`. */
export interface Pending {
  effects: readonly ClientEffect[];
  index: number;
}

/** The answer ledger's array is a field of the state itself, so it is one flat record. */
export interface WorldState extends AnswerLedger {
  queue: EventQueue<Item>;
  client: Stepped<ClientEffect>['snapshot'];
  server: Stepped<unknown>['snapshot'];
  clientState: string;
  serverState: string;
  /** Requests the network has carried; the next one's index. */
  carried: number;
  /** Workload calls issued to the client. */
  issued: number;
  /** Queue events processed (against the step budget). */
  steps: number;
  /** Workload calls that have ended. */
  ended: Set<number>;
  /** The response faults of each carried request, applied when its response leaves. */
  responseFaults: Map<number, readonly FaultName[]>;
  /** Exploration: stop before each `send`, leaving it `pending` (world/fork.ts resumes it). */
  pauses: boolean;
  pending: Pending | null;
}

/** An independent copy: what a fork may change is copied, immutable data is shared. */
export function cloneState<S extends object>(state: S): S {
  const copy = { ...state };
  for (const key in copy) {
    const v = copy[key];
    if (v instanceof Set) copy[key] = new Set(v) as typeof v;
    else if (Array.isArray(v)) copy[key] = v.slice() as typeof v;
    else if (v instanceof Map) copy[key] = new Map(v) as typeof v;
    else if (v instanceof EventQueue) copy[key] = v.clone() as typeof v;
  }
  return copy;
}

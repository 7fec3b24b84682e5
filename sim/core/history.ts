// One append-only history per run: the workload's invokes and outcomes, every request and response
// the network carried, the faults that fired, the machines' state changes and notes. Plain JSON,
// so it can be saved, replayed, diffed and rendered; the oracles read nothing else.
import type { ClientNote } from '../../models/client-context.ts';
import type { Combination } from '../../models/policies.ts';
import type { ServerNote } from '../../models/server.ts';
import type { TextContent } from '../../models/messages.ts';
import type { FaultPlan } from './plan.ts';
import type { Reach } from './reach.ts';
import type { Workload } from './workload.ts';

export const HISTORY_VERSION = 1;

/** What had become of the server's answer when a call's deadline ended it. */
export type Answer = 'delivered' | 'lost' | 'in-transit' | 'none';

export type HistoryEntry = { t: number } & (
  | { kind: 'invoke'; callId: number; method: string; progress: boolean; idempotent?: boolean }
  | { kind: 'end'; callId: number; attempts: number; req: number; end: 'result'; content: TextContent[] }
  | { kind: 'end'; callId: number; attempts: number; req: number; end: 'error'; reason: string }
  | { kind: 'end'; callId: number; attempts: number; req: number; end: 'deadline'; answer: Answer; serverFinished: boolean }
  | { kind: 'end'; callId: number; attempts: number; req: number; end: 'never'; answer: Answer; serverFinished: boolean }
  | {
      kind: 'request';
      req: number;
      method: string;
      rpc: string;
      headers: Record<string, string>;
      callId?: number;
      /** The JSON-RPC id, where the run records it (a client audit: was a re-issue a new request?). */
      id?: number | string;
    }
  | { kind: 'fault'; fault: string; at: number; applied: boolean; detail: string }
  | {
      kind: 'response';
      req: number;
      status: number;
      contentType: string | null;
      sessionId: string | null;
      body: 'json' | 'sse' | 'empty';
      events?: number;
      complete?: boolean;
      /** When the response reaches the client (after any delay). */
      deliverAt: number;
      /** The JSON-RPC error code of a single-JSON body that carries one (the wire tier; the spec lens reads it). */
      rpcError?: number;
      from: 'server' | 'load-balancer';
      /** A real server's adapter only: what reached the server (`chunked: accept, content-type, …`), to
       *  tell whether a fault changed it (audit/server/acted.ts). */
      reached?: string;
      /** A real server's whole body that its Content-Type misnames, as what it is (`JSON (JSON-RPC -32001)
       *  sent without a Content-Type`); absent where the label is true (wire/protocol/body-content.ts). */
      content?: string;
    }
  | { kind: 'deliver'; req: number }
  | { kind: 'state'; machine: 'client' | 'server'; from: string; to: string }
  | ({ kind: 'client' } & ClientNote)
  | ({ kind: 'server' } & ServerNote)
  | { kind: 'budget-exhausted'; steps: number }
);

export type EndEntry = Extract<HistoryEntry, { kind: 'end' }>;

export interface History {
  version: number;
  combination: Combination;
  workload: Workload;
  plan: FaultPlan;
  schedule: readonly number[];
  entries: HistoryEntry[];
  /** The states and transitions the model's machines reached; absent where real code ran (the wire tier). */
  coverage?: Reach;
  /** Wire runs (wire/): what stood on each side, the model with its knobs or real code. */
  wire?: { client: string; server: string };
}

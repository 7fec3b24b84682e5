// `at-most-once`: no agent call makes a side-effecting tool run more than once on the server. A
// call re-sent after a lost acknowledgement (a 502 that replaced an answer the server had already
// executed, a stream cut the server was not told about, a deadline on an answer still under way)
// runs twice while the agent sees one result: a duplicate nobody hears of is silent. Calls to a tool
// annotated `idempotentHint: true` may run again. Judged from the history alone: the agent's
// `invoke`s, the client's failed attempts and the server's `call-finished` notes.
import type { PropertyFold } from './fold.ts';

interface OnceState {
  readonly why: string | null;
  /** The situation: an attempt failed at the client after the server had run the call. */
  readonly reached: boolean;
  /** Calls invoked as idempotent. */
  readonly idempotent: readonly number[];
  /** For each side-effecting call the server ran, the requests it ran on, in the order the calls first ran.
   *  (A short array, not a record keyed by call id: a spread of an integer-keyed record is V8's slow path.) */
  readonly ran: readonly Ran[];
}

type Ran = readonly [callId: number, reqs: readonly number[]];

const ranOf = (s: OnceState, callId: number) => s.ran.find((r) => r[0] === callId)?.[1];

export const atMostOnce: Omit<PropertyFold<OnceState>, 'name'> = {
  holdsWhen: 'no agent call makes a side-effecting tool run more than once on the server',
  reads: ['invoke', 'client', 'server'],
  init: () => ({ why: null, reached: false, idempotent: [], ran: [] }),
  step(s, e) {
    if (s.why !== null) return s;
    if (e.kind === 'invoke')
      return e.idempotent ? { why: s.why, reached: s.reached, idempotent: [...s.idempotent, e.callId], ran: s.ran } : s;
    if (e.kind === 'client' && e.note === 'attempt-failed')
      return !s.reached && ranOf(s, e.callId) !== undefined ? { why: s.why, reached: true, idempotent: s.idempotent, ran: s.ran } : s;
    if (e.kind !== 'server' || e.note !== 'call-finished' || e.callId < 0 || s.idempotent.includes(e.callId)) return s;
    const reqs = [...(ranOf(s, e.callId) ?? []), e.req];
    const callId = e.callId;
    const ran: Ran[] = s.ran.some((r) => r[0] === callId)
      ? s.ran.map((r) => (r[0] === callId ? [callId, reqs] : r))
      : [...s.ran, [callId, reqs]];
    if (reqs.length < 2) return { why: s.why, reached: s.reached, idempotent: s.idempotent, ran };
    const why = `call ${e.callId}'s side-effecting tool ran ${reqs.length} times on the server (requests ${reqs.join(', ')}) for one agent call, at t=${e.t} ms`;
    return { why, reached: true, idempotent: s.idempotent, ran };
  },
  verdict: (s) => (s.why !== null ? { holds: false, reached: true, why: s.why } : { holds: true, reached: s.reached }),
  // A call that has run once may still run again; which calls are idempotent decides whether it counts.
  key: (s) =>
    s.why !== null
      ? 'V'
      : `${s.reached ? 'r' : '-'}${[...s.idempotent].sort((a, b) => a - b).join(',')}|${s.ran
          .map((r) => String(r[0]))
          .sort()
          .join(',')}`,
};

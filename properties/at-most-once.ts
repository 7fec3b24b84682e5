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
  /** For each side-effecting call the server ran, the requests it ran on. */
  readonly ran: Readonly<Record<number, readonly number[]>>;
}

export const atMostOnce: PropertyFold<OnceState> = {
  name: 'at-most-once',
  holdsWhen: 'no agent call makes a side-effecting tool run more than once on the server',
  reads: ['invoke', 'client', 'server'],
  init: () => ({ why: null, reached: false, idempotent: [], ran: {} }),
  step(s, e) {
    if (s.why !== null) return s;
    if (e.kind === 'invoke') return e.idempotent ? { ...s, idempotent: [...s.idempotent, e.callId] } : s;
    if (e.kind === 'client' && e.note === 'attempt-failed') return !s.reached && e.callId in s.ran ? { ...s, reached: true } : s;
    if (e.kind !== 'server' || e.note !== 'call-finished' || e.callId < 0 || s.idempotent.includes(e.callId)) return s;
    const reqs = [...(s.ran[e.callId] ?? []), e.req];
    const ran = { ...s.ran, [e.callId]: reqs };
    if (reqs.length < 2) return { ...s, ran };
    const why = `call ${e.callId}'s side-effecting tool ran ${reqs.length} times on the server (requests ${reqs.join(', ')}) for one agent call, at t=${e.t} ms`;
    return { ...s, ran, reached: true, why };
  },
  verdict: (s) => (s.why !== null ? { holds: false, reached: true, why: s.why } : { holds: true, reached: s.reached }),
  // A call that has run once may still run again; which calls are idempotent decides whether it counts.
  key: (s) =>
    s.why !== null
      ? 'V'
      : `${s.reached ? 'r' : '-'}${[...s.idempotent].sort((a, b) => a - b).join(',')}|${Object.keys(s.ran).sort().join(',')}`,
};

// `at-most-once`: no agent call makes a side-effecting tool run more than once on the server. A
// call re-sent after a lost acknowledgement (a 502 that replaced an answer the server had already
// executed, a stream cut the server was not told about) runs twice while the agent sees one result:
// a duplicate nobody hears of is silent. Calls to a tool annotated `idempotentHint: true` may run
// again. Judged from the history alone: the agent's `invoke`s, the requests the network carried and
// the server's `call-finished` notes.
import type { History } from '../core/history.ts';
import type { Property, PropertyVerdict } from './properties.ts';

export const atMostOnce: Property = {
  name: 'at-most-once',
  holdsWhen: 'no agent call makes a side-effecting tool run more than once on the server',
  check(h: History): PropertyVerdict {
    const idempotent = new Set<number>();
    const ran = new Map<number, number[]>();
    let reached = false;
    for (const e of h.entries) {
      if (e.kind === 'invoke' && e.idempotent) idempotent.add(e.callId);
      // The situation: an attempt of a side-effecting call failed at the client after the server had
      // run it (a lost acknowledgement). Re-sending it now runs the tool again; not re-sending is safe.
      else if (e.kind === 'client' && e.note === 'attempt-failed' && ran.has(e.callId)) reached = true;
      else if (e.kind === 'server' && e.note === 'call-finished' && e.callId >= 0 && !idempotent.has(e.callId)) {
        const reqs = [...(ran.get(e.callId) ?? []), e.req];
        ran.set(e.callId, reqs);
        if (reqs.length > 1) {
          return {
            holds: false,
            reached: true,
            why: `call ${e.callId}'s side-effecting tool ran ${reqs.length} times on the server (requests ${reqs.join(', ')}) for one agent call, at t=${e.t} ms`,
          };
        }
      }
    }
    return { holds: true, reached };
  },
};

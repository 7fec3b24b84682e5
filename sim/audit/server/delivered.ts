// Duplicate execution as the fault proxy sees it, so that it is judged on a black box too: a
// side-effecting call whose `tools/call` reached the server and was accepted (a 2xx answer from the
// server itself, not the load balancer) more than once for one agent call. MCP carries no
// idempotency key, so a server cannot tell a re-issued call from a new one: accepted twice is run
// twice. A request refused (a 4xx after a restart, a 502 the load balancer answered) never ran.
import type { History } from '../../core/history.ts';

/** Why one agent call's side-effecting tool reached the server twice, or null. */
export function deliveredTwice(h: History): string | null {
  const idempotent = new Set<number>();
  const callOf = new Map<number, number>();
  const accepted = new Map<number, number[]>();
  for (const e of h.entries) {
    if (e.kind === 'invoke' && e.idempotent) idempotent.add(e.callId);
    else if (e.kind === 'request' && e.rpc === 'tools/call' && e.callId !== undefined) callOf.set(e.req, e.callId);
    else if (e.kind === 'response' && e.from === 'server' && e.status >= 200 && e.status < 300) {
      const callId = callOf.get(e.req);
      if (callId === undefined || idempotent.has(callId)) continue;
      const reqs = [...(accepted.get(callId) ?? []), e.req];
      accepted.set(callId, reqs);
      if (reqs.length > 1)
        return `call ${callId}'s side-effecting tools/call reached the server and was accepted ${reqs.length} times (requests ${reqs.join(', ')}) for one agent call: run twice, as MCP carries no idempotency key`;
    }
  }
  return null;
}

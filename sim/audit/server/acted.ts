// Whether a scenario's fault changed what reached the server (or what came back from it), told
// from the faulted run and its fault-free reference. The fault network says a fault applied when it
// changed the exchange it carries; against a real server, what the server received is what the
// loopback adapter forwarded (the response entry's `reached`), and a header fault that leaves that
// unchanged tested nothing. Each scenario records the answer (ScenarioResult.acted), and a fault that
// did not act makes its row `not tested`, never `pass`.
import type { History, HistoryEntry } from '../../core/history.ts';

type Response = Extract<HistoryEntry, { kind: 'response' }>;
type Fault = Extract<HistoryEntry, { kind: 'fault' }>;

export interface Acted {
  acted: boolean;
  /** What the fault changed, or why it changed nothing, in one line. */
  how: string;
  /** Set where it changed nothing because the requirement does not apply (a server that issues no session). */
  notApplicable?: string;
}

const responseTo = (h: History, req: number): Response | undefined =>
  h.entries.find((e): e is Response => e.kind === 'response' && e.req === req);

/** The first fault that applied, and what it changed at the server or on the way back. */
export function actedOn(history: History, reference: History): Acted {
  const faults = history.entries.filter((e): e is Fault => e.kind === 'fault');
  const fault = faults.find((f) => f.applied);
  if (!fault) {
    const first = faults[0];
    if (!first) return { acted: false, how: 'the run ended before the fault fired' };
    const how = `${first.fault}: ${first.detail}`;
    // No session id to strip: the server issues none, so what the row asks of sessions does not apply.
    if (first.fault === 'strip-header:mcp-session-id' && !sessionIssued(history))
      return { acted: false, how, notApplicable: 'the server issues no session id (Mcp-Session-Id): the requirement does not apply' };
    return { acted: false, how };
  }
  const answer = responseTo(history, fault.at);
  if (answer?.from === 'load-balancer' && !fault.fault.startsWith('strip-header'))
    return { acted: true, how: `${fault.fault}: ${fault.detail} (the request never reached the server)` };
  if (fault.fault.startsWith('strip-header:')) return headerFault(fault, answer, responseTo(reference, fault.at));
  return { acted: true, how: `${fault.fault}: ${fault.detail}` };
}

/** Whether any response of the run carried an Mcp-Session-Id. */
export const sessionIssued = (h: History) => h.entries.some((e) => e.kind === 'response' && e.sessionId !== null);

/** A header fault acted when the server received another request than in the fault-free run. */
function headerFault(fault: Fault, answer: Response | undefined, before: Response | undefined): Acted {
  // An in-process server is handed the request as the network forwarded it: the network's word stands.
  if (answer?.reached === undefined || before?.reached === undefined) return { acted: true, how: `${fault.fault}: ${fault.detail}` };
  if (answer.reached === before.reached)
    return {
      acted: false,
      how: `${fault.fault}: the server received the same request as in the fault-free run (${answer.reached})`,
    };
  return { acted: true, how: `${fault.fault}: the server received ${answer.reached} (fault-free: ${before.reached})` };
}

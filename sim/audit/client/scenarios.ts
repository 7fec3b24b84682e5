// The audit's scenarios as a client meets them: the same names as the server scenarios
// (audit/scenarios.ts), judged on what the agent sees through the client under audit (a result, a loud
// error, a silent empty result, a hang past its deadline). The server is the constant (the model
// by default), the client the variable. A client's requests are its own (the Python SDK client
// sends a GET and a tools/list the model client never sends), so faults are placed on a request
// named by what it carries — the tools/call of workload call n in the client's fault-free run —
// and turned into an absolute plan from that run (client/runner.ts). A scenario that asks a
// question only a server answers is listed with the reason it does not apply to a client.
import { emptyResponse } from '../../../models/messages.ts';
import type { FaultName } from '../../../models/faults.ts';
import type { Revision } from '../../../models/policies.ts';
import { emptyAdditions, type PolicyAdditions } from '../../../models/additions.ts';
import type { PropertyName } from '../../../properties/properties.ts';
import { call, type Workload } from '../../core/workload.ts';
import { AUDIT_PROPERTIES, SCENARIOS } from '../scenarios.ts';

/** A request of the client's fault-free run: the first tools/call of workload call `call`, then
 *  `shift` requests on; or, with `rpc: 'GET'`, the client's first GET (its standalone stream). */
export type RequestMark = { call: number; shift?: number } | { rpc: 'GET' };

export interface ClientScenario {
  name: string;
  /** What the scenario asks of the client, in one line. */
  asks: string;
  faults: readonly { fault: FaultName; on: RequestMark }[];
  workload: Workload;
  judgedBy: readonly PropertyName[];
  /** The revisions it runs in (the harness speaks one per run). */
  revisions: readonly Revision[];
}

const SILENT = AUDIT_PROPERTIES;
const THREE = [call(), call(), call()];
const LEGACY: readonly Revision[] = ['2025-11-25'];
const MODERN: readonly Revision[] = ['2026-07-28'];
const BOTH: readonly Revision[] = ['2025-11-25', '2026-07-28'];
// On the first call: `recovers` counts the calls invoked after the last fault, and needs two of them.
const first = (fault: FaultName) => [{ fault, on: { call: 0 } }];

/** The client audit's own fault: the network answers a GET with 405 (a server that offers no GET stream). */
export const CLIENT_AUDIT_FAULTS: PolicyAdditions = (() => {
  const additions = emptyAdditions();
  additions.faults.add(
    {
      name: 'get-405',
      describe: 'a GET is answered 405 Method Not Allowed (a server that offers no standalone SSE stream)',
      request: ({ request }) =>
        request.method === 'GET'
          ? { applied: true, detail: 'answered 405 (no GET stream offered)', answer: emptyResponse(405, { allow: 'POST' }) }
          : { applied: false, detail: `a ${request.method}, not a GET` },
    },
    'sim/audit/client/scenarios.ts',
  );
  return additions;
})();

export const CLIENT_SCENARIOS: readonly ClientScenario[] = [
  {
    name: 'unknown-session',
    asks: 'the server forgot the session: does the client surface the 404 and start a new session (re-initialize)?',
    faults: first('session-expire'),
    workload: THREE,
    judgedBy: SILENT,
    revisions: LEGACY,
  },
  {
    name: 'server-restart',
    asks: 'the server restarted (every session gone): do the calls recover on a new session?',
    faults: first('server-restart'),
    workload: THREE,
    judgedBy: SILENT,
    revisions: LEGACY,
  },
  {
    name: 'stream-cut-call',
    asks: 'its tools/call SSE stream is cut before the result: does the client resume or fail loudly at once, or hang?',
    faults: first('stream-cut'),
    workload: THREE,
    judgedBy: SILENT,
    revisions: LEGACY,
  },
  {
    name: 'http-502-call',
    asks: 'a 502 from the load balancer on a tools/call: an error the agent sees, and the session goes on',
    faults: first('http-502'),
    workload: THREE,
    judgedBy: SILENT,
    revisions: BOTH,
  },
  {
    name: 'held-past-deadline',
    asks: "a response held past the client's own request timeout: a timeout the agent sees, not a silent hang",
    faults: first('delay:40000'),
    workload: THREE,
    judgedBy: SILENT,
    revisions: BOTH,
  },
  {
    name: 'strip-accept',
    asks: 'its tools/call reaches the server without Accept (refused, 406): does the client fail loudly and go on?',
    faults: first('strip-header:accept'),
    workload: THREE,
    judgedBy: SILENT,
    revisions: LEGACY,
  },
  {
    name: 'strip-session-id',
    asks: 'its tools/call reaches the server without Mcp-Session-Id (refused, 400): loud, and the next call works?',
    faults: first('strip-header:mcp-session-id'),
    workload: THREE,
    judgedBy: SILENT,
    revisions: LEGACY,
  },
  {
    name: 'strip-last-event-id',
    asks: 'a cut stream whose resumption lost its Last-Event-ID: does the client notice (loud), never an empty result?',
    faults: [
      { fault: 'stream-cut', on: { call: 0 } },
      { fault: 'strip-header:last-event-id', on: { call: 0, shift: 1 } },
    ],
    workload: THREE,
    judgedBy: SILENT,
    revisions: LEGACY,
  },
  {
    name: 'strip-transfer-encoding',
    asks: 'its tools/call POST loses Transfer-Encoding on the way: still answered, or refused loudly?',
    faults: first('strip-header:transfer-encoding'),
    workload: THREE,
    judgedBy: SILENT,
    revisions: LEGACY,
  },
  {
    name: 'get-405',
    asks: 'its GET stream is refused with 405 (a server that offers none; every 2026-07-28 server): do the calls go on?',
    faults: [{ fault: 'get-405', on: { rpc: 'GET' } }],
    workload: THREE,
    judgedBy: SILENT,
    revisions: BOTH,
  },
  {
    name: 'strip-protocol-version',
    asks: 'its tools/call loses MCP-Protocol-Version on the way (400, -32020): loud at once, and the next call works?',
    faults: first('strip-header:mcp-protocol-version'),
    workload: THREE,
    judgedBy: SILENT,
    revisions: MODERN,
  },
  {
    name: 'cut-reissue-once',
    // Not judged by at-most-once: a cut the server is not told of makes a correct re-issue run the tool
    // twice (the server audit's question); the client is judged on the re-issue itself.
    asks: 'its tools/call stream is cut: does the library re-issue it with a new id (the 2026-07-28 MUST)?',
    faults: first('stream-cut'),
    workload: THREE,
    judgedBy: SILENT,
    revisions: MODERN,
  },
];

/** Server scenarios a client cannot be audited by, with why (shown as `not applicable`). */
export const NOT_FOR_CLIENTS: Readonly<Record<string, string>> = {
  'reinit-live-session':
    "a question to the server (its answer to a second initialize on a live session): a harness reconnects with a fresh 'connect', a new session",
  'progress-after-fallback':
    "the records' server build (a transport chosen by the initialize POST's framing) and the capabilities a client admits are model notions: a real client's are not in its history",
};

/** Every server scenario's name, in the server audit's order: a client scenario or a reason it does not apply. */
export const CLIENT_AUDIT_ORDER: readonly string[] = [...SCENARIOS.map((s) => s.name), 'get-405'];

// The audit's scenarios as a client meets them: the same names as the server scenarios
// (scenarios.ts), judged on what the agent sees through the client under audit (a result, a loud
// error, a silent empty result, a hang past its deadline). The server is the constant (the model
// by default), the client the variable. A client's requests are its own (the Python SDK client
// sends a GET and a tools/list the model client never sends), so faults are placed on a request
// named by what it carries — the tools/call of workload call n in the client's fault-free run —
// and turned into an absolute plan from that run (client-runner.ts). A scenario that asks a
// question only a server answers is listed with the reason it does not apply to a client.
import type { FaultName } from '../../models/faults.ts';
import type { PropertyName } from '../../properties/properties.ts';
import { call, type Workload } from '../core/workload.ts';
import { SCENARIOS } from './scenarios.ts';

/** A request of the client's fault-free run: the first tools/call of workload call `call`, then `shift` requests on. */
export interface RequestMark {
  call: number;
  shift?: number;
}

export interface ClientScenario {
  name: string;
  /** What the scenario asks of the client, in one line. */
  asks: string;
  faults: readonly { fault: FaultName; on: RequestMark }[];
  workload: Workload;
  judgedBy: readonly PropertyName[];
}

const SILENT: readonly PropertyName[] = ['no-silent-empty', 'no-silent-hang', 'recovers'];
const THREE = [call(), call(), call()];
// On the first call: `recovers` counts the calls invoked after the last fault, and needs two of them.
const first = (fault: FaultName) => [{ fault, on: { call: 0 } }];

export const CLIENT_SCENARIOS: readonly ClientScenario[] = [
  {
    name: 'unknown-session',
    asks: 'the server forgot the session: does the client surface the 404 and start a new session (re-initialize)?',
    faults: first('session-expire'),
    workload: THREE,
    judgedBy: SILENT,
  },
  {
    name: 'server-restart',
    asks: 'the server restarted (every session gone): do the calls recover on a new session?',
    faults: first('server-restart'),
    workload: THREE,
    judgedBy: SILENT,
  },
  {
    name: 'stream-cut-call',
    asks: 'its tools/call SSE stream is cut before the result: does the client resume or fail loudly at once, or hang?',
    faults: first('stream-cut'),
    workload: THREE,
    judgedBy: SILENT,
  },
  {
    name: 'http-502-call',
    asks: 'a 502 from the load balancer on a tools/call: an error the agent sees, and the session goes on',
    faults: first('http-502'),
    workload: THREE,
    judgedBy: SILENT,
  },
  {
    name: 'held-past-deadline',
    asks: "a response held past the client's own request timeout: a timeout the agent sees, not a silent hang",
    faults: first('delay:40000'),
    workload: THREE,
    judgedBy: SILENT,
  },
  {
    name: 'strip-accept',
    asks: 'its tools/call reaches the server without Accept (refused, 406): does the client fail loudly and go on?',
    faults: first('strip-header:accept'),
    workload: THREE,
    judgedBy: SILENT,
  },
  {
    name: 'strip-session-id',
    asks: 'its tools/call reaches the server without Mcp-Session-Id (refused, 400): loud, and the next call works?',
    faults: first('strip-header:mcp-session-id'),
    workload: THREE,
    judgedBy: SILENT,
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
  },
  {
    name: 'strip-transfer-encoding',
    asks: 'its tools/call POST loses Transfer-Encoding on the way: still answered, or refused loudly?',
    faults: first('strip-header:transfer-encoding'),
    workload: THREE,
    judgedBy: SILENT,
  },
];

/** Server scenarios a client cannot be audited by, with why (shown as `not applicable`). */
export const NOT_FOR_CLIENTS: Readonly<Record<string, string>> = {
  'reinit-live-session':
    "a question to the server (its answer to a second initialize on a live session): a harness reconnects with a fresh 'connect', a new session",
  'progress-after-fallback':
    "the records' server build (a transport chosen by the initialize POST's framing) and the capabilities a client admits are model notions: a real client's are not in its history",
  'strip-protocol-version': 'a 2026-07-28 scenario: the harness protocol carries no revision and the shipped harnesses speak 2025-11-25',
  'cut-reissue-once': 'a 2026-07-28 scenario: the harness protocol carries no revision and the shipped harnesses speak 2025-11-25',
};

/** Every server scenario's name, in the server audit's order: a client scenario or a reason it does not apply. */
export const CLIENT_AUDIT_ORDER: readonly string[] = SCENARIOS.map((s) => s.name);

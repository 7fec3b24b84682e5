// The shape of a fault a policy module adds (`faults.<name>` in definePolicies): names and types
// only, so the registry (additions.ts) can hold definitions without importing the network's rules.
import type { HttpRequest, HttpResponse } from './messages.ts';
import type { KnobValues } from './policy-defs.ts';

/** A fault a policy module adds: it acts at request n, on the request, its response, or both. Its
 *  hooks return what changed rather than mutating anything. */
export interface FaultDef {
  /** The fault's name in plans and `--faults` (no ':'). */
  name: string;
  /** One line: what it does (shown by `list` and the reports). */
  describe: string;
  /** The concrete names the arbitraries draw (default: just `name`). */
  instances?: readonly string[];
  request?: (input: { fault: string; request: HttpRequest; knobs: KnobValues }) => {
    applied: boolean;
    detail: string;
    /** The request as the server will see it. */
    request?: HttpRequest;
    /** The network answers itself; the request never reaches the server. */
    answer?: HttpResponse;
  };
  response?: (input: { fault: string; response: HttpResponse; knobs: KnobValues }) => {
    applied: boolean;
    detail: string;
    response?: HttpResponse;
    delayMs?: number;
    /** The answer will not reach the client (as a cut stream's). */
    lostAnswer?: boolean;
  };
}

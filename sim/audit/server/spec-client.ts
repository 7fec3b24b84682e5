// The spec-literal counterpart of the audit's model client: the same client with the one knob the
// spec decides set as the spec says — after a failure it keeps its session, and only HTTP 404 on a
// request that carried the session id makes it start a new one (2025-11-25 Session Management).
// Resumption needs no change (the model client resumes only where the cut stream carried event ids,
// i.e. the server keeps an event store), nor does the 2026-07-28 re-issue (always a new request id).
// `keep-session` is not a value of the matrices: it comes in as an addition of this run only.
import { combination, type ClientPolicy } from '../../../models/policies.ts';
import { KEEP_SESSION } from '../../../models/reconnect.ts';
import { emptyAdditions, type PolicyAdditions } from '../../../models/additions.ts';

export const SPEC_LITERAL: PolicyAdditions = (() => {
  const additions = emptyAdditions();
  additions.reconnect.add(KEEP_SESSION, 'the audit (spec-literal client)');
  return additions;
})();

/** The spec-literal client of a scenario's model client; null where they are one (2026-07-28 has no sessions). */
export function specLiteralOf(policy: ClientPolicy): ClientPolicy | null {
  if (policy.protocol !== '2025-11-25') return null;
  return combination({ client: { ...policy, reconnect: KEEP_SESSION.name } }, SPEC_LITERAL).client;
}

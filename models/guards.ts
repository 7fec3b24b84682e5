// The records' mitigations, ported from their Python: record 000's `validate_reinitialize` and
// record 003's `admit_capability` / `guard_tool_call`. The client machine calls these for its
// `compare-init` and `probe` guards; the content-type check is record 000's detector 1.
import { has, TRANSPORT_DEPENDENT, type CapabilitySet, type Transport } from './capabilities.ts';

/** Raised when a session's negotiated capabilities narrow without a session reset (record 000). */
export class CapabilityRenegotiationError extends Error {
  override name = 'CapabilityRenegotiationError';
}

/** Raised when a capability was negotiated against a transport that cannot encode it (record 003). */
export class TransportCapabilityMismatch extends Error {
  override name = 'TransportCapabilityMismatch';
}

/**
 * Why record 000's `validate_reinitialize` refuses a post-reconnect `initialize` against the pinned
 * session capabilities, or null where it accepts: a predicate, so that a guard asked of every
 * `client.guards` set (models/client-guards.ts) builds no error, its stack captured, per refusal.
 */
export function whyReinitializeRefused(
  sessionId: string | null,
  prior: CapabilitySet,
  incoming: CapabilitySet,
  allowNarrowing = false,
): string | null {
  if (!sessionId) {
    return 're-initialize received without a session identifier; cannot determine whether this is a new or existing session';
  }
  const priorStreaming = has(prior, 'tools.streaming');
  const nextStreaming = has(incoming, 'tools.streaming');
  if (priorStreaming && !nextStreaming && !allowNarrowing) {
    return `session '${sessionId}' would lose tools.streaming on re-initialize; reject the handshake and force a new session, or pin capabilities to the first handshake`;
  }
  if (!priorStreaming && nextStreaming && !allowNarrowing) {
    return `session '${sessionId}' would gain tools.streaming mid-session; this is a session reset, not a renegotiation`;
  }
  return null;
}

/**
 * Validate a post-reconnect `initialize` against the pinned session capabilities. Returns the set
 * to honour for the rest of the session; throws if `tools.streaming` would change (either way) and
 * changing it is not explicitly allowed.
 */
export function validateReinitialize(
  sessionId: string | null,
  prior: CapabilitySet,
  incoming: CapabilitySet,
  { allowNarrowing = false }: { allowNarrowing?: boolean } = {},
): CapabilitySet {
  const refusal = whyReinitializeRefused(sessionId, prior, incoming, allowNarrowing);
  if (refusal !== null) throw new CapabilityRenegotiationError(refusal);
  return allowNarrowing ? incoming : prior;
}

/** Whether `admitCapability` refuses the capability (a predicate: `unadmitted` asks it of every
 *  capability of every call, and a thrown error, its stack captured, per refusal was a hundredth of a run). */
function refused(capability: string, negotiatedTransport: Transport, preferredTransport: Transport, probed: readonly string[]): boolean {
  return negotiatedTransport !== preferredTransport && TRANSPORT_DEPENDENT.has(capability) && !probed.includes(capability);
}

export function admitCapability(
  capability: string,
  negotiatedTransport: Transport,
  preferredTransport: Transport,
  probed: readonly string[],
): void {
  if (!refused(capability, negotiatedTransport, preferredTransport, probed)) return;
  throw new TransportCapabilityMismatch(
    `capability '${capability}' negotiated under '${preferredTransport}' but session fell back to '${negotiatedTransport}'; no successful probe observed, refusing to admit transport-dependent call`,
  );
}

export function guardToolCall(
  capabilities: readonly string[],
  negotiatedTransport: Transport,
  preferredTransport: Transport,
  probed: readonly string[],
): void {
  for (const cap of capabilities) admitCapability(cap, negotiatedTransport, preferredTransport, probed);
}

/** The capabilities `guardToolCall` would refuse, as data: the client probes these instead of failing. */
export function unadmitted(
  capabilities: readonly string[],
  negotiatedTransport: Transport,
  preferredTransport: Transport,
  probed: readonly string[],
): string[] {
  return capabilities.filter((cap) => refused(cap, negotiatedTransport, preferredTransport, probed));
}

/** Record 000's detector 1: the response's Content-Type must match the negotiated streaming mode. */
export function contentTypeMatches(responseType: string | undefined, expectStreaming: boolean): boolean {
  return responseType === (expectStreaming ? 'text/event-stream' : 'application/json');
}

// What the server does with a second `initialize` on a live session: one strategy per
// `server.reinit` value. The spec does not define this case at all, so every value is a real choice.
import { intersect, SERVER_CAPABILITIES, expressible, type CapabilitySet, type Transport } from './capabilities.ts';
import type { AdvertisePolicy, ReinitPolicy } from './policies.ts';

export interface SessionView {
  caps: CapabilitySet;
  firstCaps: CapabilitySet;
  transport: Transport;
}

export type ReinitDecision =
  /** Keep the session, now with these capabilities; answer with them. */
  | { kind: 'adopt'; caps: CapabilitySet }
  /** Refuse: JSON-RPC -32600 on HTTP 400; the session is unchanged. */
  | { kind: 'reject' }
  /** Open a fresh session from this handshake, with a new id. */
  | { kind: 'new-session' };

export interface ReinitInput {
  session: SessionView;
  clientCaps: CapabilitySet;
  /** The session's transport after this request (a stripped header may have just moved it to SSE). */
  transport: Transport;
  advertise: AdvertisePolicy;
}

/** The capability set a server advertises: fixed at handshake, or recomputed for the transport in use. */
export function advertised(caps: CapabilitySet, transport: Transport, advertise: AdvertisePolicy): CapabilitySet {
  return advertise === 'per-transport' ? caps.filter((c) => expressible(c, transport)) : caps;
}

export type ReinitStrategy = (input: ReinitInput) => ReinitDecision;

/**
 * The capabilities a session opens with, before advertising. Intersected with the client's set,
 * except under `idempotent`: a handshake that answers the same whatever the client sent must do so
 * on the first handshake too, or a re-initialize would widen the session rather than repeat it.
 */
export function openingCaps(reinit: ReinitPolicy, clientCaps: CapabilitySet): CapabilitySet {
  return reinit === 'idempotent' ? SERVER_CAPABILITIES : intersect(SERVER_CAPABILITIES, clientCaps);
}

export const REINIT_STRATEGIES: Record<ReinitPolicy, ReinitStrategy> = {
  'honor-last': ({ clientCaps, transport, advertise }) => ({
    kind: 'adopt',
    caps: advertised(intersect(SERVER_CAPABILITIES, clientCaps), transport, advertise),
  }),
  'pin-first': ({ session }) => ({ kind: 'adopt', caps: session.firstCaps }),
  reject: () => ({ kind: 'reject' }),
  idempotent: ({ transport, advertise }) => ({ kind: 'adopt', caps: advertised(SERVER_CAPABILITIES, transport, advertise) }),
  'new-session': () => ({ kind: 'new-session' }),
};

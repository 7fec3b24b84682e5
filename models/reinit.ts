// What the server does with a second `initialize` on a live session: one strategy per
// `server.reinit` value. The spec does not define this case at all, so every value is a real choice.
import { intersect, SERVER_CAPABILITIES, expressible, type CapabilitySet, type Transport } from './capabilities.ts';
import type { AdvertisePolicy, ReinitPolicy } from './policies.ts';
import type { ReinitPolicyDef } from './policy-defs.ts';
import { activeExtensions, type ModelExtensions } from './registry.ts';

/** The capability set a server advertises: fixed at handshake, or recomputed for the transport in use. */
export function advertised(caps: CapabilitySet, transport: Transport, advertise: AdvertisePolicy): CapabilitySet {
  return advertise === 'per-transport' ? caps.filter((c) => expressible(c, transport)) : caps;
}

const BUILTIN: ReadonlyMap<string, ReinitPolicyDef> = new Map(
  (
    [
      {
        name: 'honor-last',
        decide: ({ clientCaps, transport, advertise }) => ({
          kind: 'adopt',
          caps: advertised(intersect(SERVER_CAPABILITIES, clientCaps), transport, advertise),
        }),
      },
      { name: 'pin-first', decide: ({ session }) => ({ kind: 'adopt', caps: session.firstCaps }) },
      { name: 'reject', decide: () => ({ kind: 'reject' }) },
      {
        name: 'idempotent',
        decide: ({ transport, advertise }) => ({ kind: 'adopt', caps: advertised(SERVER_CAPABILITIES, transport, advertise) }),
        // A handshake that answers the same whatever the client sent must do so on the first
        // handshake too, or a re-initialize would widen the session rather than repeat it.
        opening: () => SERVER_CAPABILITIES,
      },
      { name: 'new-session', decide: () => ({ kind: 'new-session' }) },
    ] satisfies ReinitPolicyDef[]
  ).map((d) => [d.name, d]),
);

export function reinitPolicy(name: ReinitPolicy, ext: ModelExtensions = activeExtensions()): ReinitPolicyDef {
  const def = BUILTIN.get(name) ?? ext.reinit.get(name);
  if (!def) throw new Error(`unknown server.reinit policy '${name}'`);
  return def;
}

/** The capabilities a session opens with, before advertising. */
export function openingCaps(reinit: ReinitPolicy, clientCaps: CapabilitySet): CapabilitySet {
  const { opening } = reinitPolicy(reinit);
  return opening ? opening(clientCaps) : intersect(SERVER_CAPABILITIES, clientCaps);
}

const sameCaps = (a: CapabilitySet, b: CapabilitySet) => a.length === b.length && a.every((c, i) => c === b[i]);

/** `advertised(openingCaps(…))`, asking for a knob only where its value decides: a client that
 *  proposes the server's whole set opens the same session under every built-in `server.reinit`
 *  (a module's `opening` is not called unasked), and `server.advertise` decides only where the
 *  transport cannot express a capability. Same result; search/random/read-set.ts reuses runs that
 *  did not read a knob. */
export function openingAdvertised(
  reinit: () => ReinitPolicy,
  advertise: () => AdvertisePolicy,
  clientCaps: CapabilitySet,
  transport: Transport,
  ext: ModelExtensions = activeExtensions(),
): CapabilitySet {
  const plain = intersect(SERVER_CAPABILITIES, clientCaps);
  const undecided = sameCaps(plain, SERVER_CAPABILITIES) && !ext.reinit.names().some((n) => ext.reinit.get(n)?.opening);
  const caps = undecided ? plain : openingCaps(reinit(), clientCaps);
  const expressed = caps.filter((c) => expressible(c, transport));
  return expressed.length === caps.length ? caps : advertised(caps, transport, advertise());
}

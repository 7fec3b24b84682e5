// What the server does with a second `initialize` on a live session: one strategy per
// `server.reinit` value. The spec does not define this case at all, so every value is a real choice.
import { intersect, SERVER_CAPABILITIES, expressible, type CapabilitySet, type Transport } from './capabilities.ts';
import { SERVER_KNOBS } from './knobs.ts';
import type { AdvertisePolicy, ReinitPolicy } from './policies.ts';
import type { ReinitPolicyDef } from './policy-defs.ts';
import type { PolicyAdditions } from './additions.ts';

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

export function reinitPolicy(name: ReinitPolicy, additions: PolicyAdditions): ReinitPolicyDef {
  const def = BUILTIN.get(name) ?? additions.reinit.get(name);
  if (!def) throw new Error(`unknown server.reinit policy '${name}'`);
  return def;
}

/** Every value `server.reinit` can take under `additions`; null where a policy module adds some (its
 *  strategies are asked only for the value a combination sets: models/knob-choice.ts). */
export function reinitValues(additions: PolicyAdditions): readonly ReinitPolicy[] | null {
  return additions.reinit.names().length === 0 ? SERVER_KNOBS.reinit.values : null;
}

/** The capabilities a session opens with, before advertising. */
export function openingCaps(reinit: ReinitPolicy, clientCaps: CapabilitySet, additions: PolicyAdditions): CapabilitySet {
  const { opening } = reinitPolicy(reinit, additions);
  return opening ? opening(clientCaps) : intersect(SERVER_CAPABILITIES, clientCaps);
}

// The client's guards as definitions: each `client.guards` value may check a tools/call response
// before it is read (a reason fails the attempt loudly) and an accepted re-initialize result (a
// reason kills the session). The built-ins are the records' detectors and mitigation; a policy
// module may register more (additions.ts). The probe is sent in client-calls.ts and its answer read in client-answers.ts.
import { sameSet } from './capabilities.ts';
import { contentTypeMatches, whyReinitializeRefused } from './guards.ts';
import { CLIENT_KNOBS, type Guard } from './knobs.ts';
import type { GuardDef, ReinitView, ResponseView } from './policy-defs.ts';
import type { PolicyAdditions } from './additions.ts';

/** record 000's `validate_reinitialize`, plus "treat any narrowing as an error" for the other capabilities. */
function compareInit({ sessionId, firstCaps, incoming }: ReinitView): string | null {
  const refusal = whyReinitializeRefused(sessionId, firstCaps, incoming);
  if (refusal !== null) return `CapabilityRenegotiationError: ${refusal}`;
  const lost = firstCaps.filter((c) => !incoming.includes(c));
  if (lost.length > 0 && !sameSet(firstCaps, incoming)) {
    return `CapabilityRenegotiationError: session '${sessionId}' would lose ${lost.join(', ')} on re-initialize`;
  }
  return null;
}

const BUILTIN: ReadonlyMap<string, GuardDef> = new Map(
  (
    [
      {
        name: 'content-type',
        checkResponse: ({ contentType, negotiatedStreaming }) =>
          contentTypeMatches(contentType, negotiatedStreaming)
            ? null
            : `Content-Type ${contentType} does not match the negotiated ${negotiatedStreaming ? 'streaming' : 'JSON'} mode`,
      },
      { name: 'compare-init', checkReinitialize: compareInit },
      { name: 'probe', probes: true },
    ] satisfies GuardDef[]
  ).map((d) => [d.name, d]),
);

export function guardDef(name: Guard, additions: PolicyAdditions): GuardDef {
  const def = BUILTIN.get(name) ?? additions.guards.get(name);
  if (!def) throw new Error(`unknown client.guards value '${name}'`);
  return def;
}

/** Every value `client.guards` takes without a policy module's guards: each subset of the built-in ones,
 *  in knob order (a combination's sets are: models/policies.ts `normalizeSet`). */
const BUILTIN_SETS: readonly Guard[][] = Array.from({ length: 1 << CLIENT_KNOBS.guards.values.length }, (_, mask) =>
  CLIENT_KNOBS.guards.values.filter((_, i) => (mask & (1 << i)) !== 0),
);

/** The values of `client.guards` for `choose` (models/knob-choice.ts), so that a run whose guards' checks
 *  decide nothing does not count the knob, and a search that adds or removes a guard takes the cell's run;
 *  null where a policy module registered guards (its checks are asked only of the sets that hold them). */
export function guardSets(additions: PolicyAdditions): readonly Guard[][] | null {
  return additions.guards.names().length > 0 ? null : BUILTIN_SETS;
}

export function probes(guards: readonly Guard[], additions: PolicyAdditions): boolean {
  return guards.some((g) => guardDef(g, additions).probes === true);
}

/** The built-in guards that check a response. */
const RESPONSE_CHECKS = [...BUILTIN.values()].flatMap((d) => (d.checkResponse ? [d.checkResponse] : []));

/** The first guard's reason to fail this response, or null. `client.guards` is read (`guards()`, through
 *  the tracked policy) only where some set of guards refuses it: without a policy module's guards, every
 *  set lets through a response that each built-in check passes, so the knob decides nothing there. This
 *  is what `choose` over every set (`guardSets`) finds, at the cost of one check per built-in: asked on
 *  every tools/call response, the sets cost the cells' runs 8–13% (issue 40). */
export function responseRefusal(guards: () => readonly Guard[], view: () => ResponseView, additions: PolicyAdditions): string | null {
  if (guardSets(additions) !== null) {
    let seen: ResponseView | undefined;
    const once = () => (seen ??= view());
    let refused = false;
    for (const check of RESPONSE_CHECKS) if (check(once()) !== null) refused = true;
    if (!refused) return null;
  }
  for (const g of guards()) {
    const check = guardDef(g, additions).checkResponse;
    const reason = check ? check(view()) : null;
    if (reason !== null) return reason;
  }
  return null;
}

/** The first guard's reason to refuse this re-initialize result, or null. */
export function reinitializeRefusal(guards: readonly Guard[], view: ReinitView, additions: PolicyAdditions): string | null {
  for (const g of guards) {
    const check = guardDef(g, additions).checkReinitialize;
    const reason = check ? check(view) : null;
    if (reason !== null) return reason;
  }
  return null;
}

// The policy vocabulary of docs/design.md as the project imports it: the built-in knobs and types
// (knobs.ts, re-exported) and what policy modules add to them (additions.ts): values of the open
// knobs (`server.reinit`, `client.reconnect`, `client.guards`) and knobs of their own. `knobsOf` is
// the one list of a side's knobs under a set of additions: parsing, `list`, the matrices, a cut and
// the mitigation finder all walk it.
import {
  type ClientOverrides,
  type Combination,
  DEFAULT_CLIENT,
  DEFAULT_SERVER,
  type Guard,
  KNOB_TABLES,
  type KnobSpec,
  type ServerOverrides,
  type Side,
} from './knobs.ts';
import type { PolicyAdditions } from './additions.ts';

export * from './knobs.ts';
export * from './applicable.ts';

/** One knob under a set of modules: its spec with the values modules registered, and where it came from. */
export interface Knob {
  side: Side;
  knob: string;
  spec: KnobSpec;
  /** The module that declared it; absent for a built-in knob. */
  source?: string;
}

/** A side's knobs under `additions`: the built-in ones in table order (open ones with the values modules
 *  registered after the built-in values), then the knobs modules declared, in load order. */
export function knobsOf(side: Side, additions: PolicyAdditions): Knob[] {
  const out: Knob[] = [];
  for (const [knob, spec] of Object.entries(KNOB_TABLES[side])) {
    const added = spec.open ? additions[spec.open].all() : [];
    const open =
      added.length === 0
        ? spec
        : {
            ...spec,
            values: [...spec.values, ...added.map((d) => d.name)],
            describe: {
              ...spec.describe,
              ...Object.fromEntries(added.map((d) => [d.name, `${d.describe ?? '(no description)'} [from ${d.source}]`])),
            },
          };
    out.push({ side, knob, spec: open });
  }
  for (const k of additions.knobs.all()) if (k.side === side) out.push({ side, knob: k.knob, spec: k, source: k.source });
  return out;
}

/** One knob of a side under `additions`, or undefined. */
export function knobOf(side: Side, knob: string, additions: PolicyAdditions): Knob | undefined {
  if (!Object.hasOwn(KNOB_TABLES[side], knob)) {
    const declared = additions.knobs.get(`${side}.${knob}`);
    return declared && { side, knob, spec: declared, source: declared.source };
  }
  return knobsOf(side, additions).find((k) => k.knob === knob);
}

/** Every value of a knob: the built-ins, then those policy modules registered (none for an unknown knob). */
export function knobValues(side: Side, knob: string, additions: PolicyAdditions): string[] {
  const spec = Object.hasOwn(KNOB_TABLES[side], knob) ? KNOB_TABLES[side][knob]! : undefined;
  if (!spec) return [...(additions.knobs.get(`${side}.${knob}`)?.values ?? [])];
  return spec.open ? [...spec.values, ...additions[spec.open].names()] : [...spec.values];
}

/** What a value means, for `list`. */
export function describeValue(side: Side, knob: string, value: string, additions: PolicyAdditions): string {
  // A value a module added to a built-in knob says where from (knobsOf); a module's own knob says so once, in `list`.
  return knobOf(side, knob, additions)?.spec.describe[value] ?? '';
}

/** Each module knob of a side at its default: what a combination holds for those it does not set. */
function moduleDefaults(side: Side, additions: PolicyAdditions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of additions.knobs.all()) if (k.side === side) out[k.knob] = k.default;
  return out;
}

/** A full combination from partial overrides; unspecified knobs take their defaults, those `additions`'s
 *  modules declared included. Guards are put in knob order, those `additions` registers included (a guard
 *  it does not know is dropped). */
export function combination(over: { server?: ServerOverrides; client?: ClientOverrides } = {}, additions: PolicyAdditions): Combination {
  const knobs = additions.knobs.names().length > 0;
  const client = { ...DEFAULT_CLIENT, ...(knobs ? moduleDefaults('client', additions) : {}), ...over.client };
  return {
    server: { ...DEFAULT_SERVER, ...(knobs ? moduleDefaults('server', additions) : {}), ...over.server },
    client: { ...client, guards: normalizeGuards(client.guards, additions) },
  };
}

/** `c` with the knobs `additions`'s modules declared and `c` lacks at their defaults (`c` itself when none). */
export function withModuleKnobs(c: Combination, additions: PolicyAdditions): Combination {
  const missing = additions.knobs.all().some((k) => !Object.hasOwn(c[k.side], k.knob));
  return missing ? combination({ server: c.server, client: c.client }, additions) : c;
}

/** A set knob's members in knob order, without duplicates (a value `additions` does not know is dropped). */
export function normalizeSet(side: Side, knob: string, members: readonly string[], additions: PolicyAdditions): string[] {
  return knobValues(side, knob, additions).filter((v) => members.includes(v));
}

export function normalizeGuards(guards: readonly Guard[], additions: PolicyAdditions): Guard[] {
  return normalizeSet('client', 'guards', guards, additions);
}

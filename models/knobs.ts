// The policy knobs of docs/design.md, each written once: its values, default, meaning, what each
// value does, and what the rest of the project needs to know of it (a set knob, one a policy module
// adds values to, one only 2025-11-25 has, one the full matrix holds at its default). The policy
// types, the defaults and the compact form (here), what a combination cannot reach (applicable.ts),
// and everywhere that lists knobs (parsing, `list`, matrices, the mitigation finder, report columns,
// the file schema) are derived from these two tables. The names are stable: the CLI, the reports and the tests use
// exactly these strings. Names and data only, below the registry (additions.ts), so the definitions
// a policy module registers can name these types without an import cycle; the rest of the project
// imports them through policies.ts, which adds what modules register.

/** What the project knows of one knob. */
export interface KnobSpec {
  readonly values: readonly string[];
  /** For a set knob, its members joined with '+' ('' for none). */
  readonly default: string;
  readonly meaning: string;
  readonly describe: Readonly<Record<string, string>>;
  /** A set knob: any subset of the values, held sorted in value order without duplicates, written
   *  joined with '+'. */
  readonly subset?: true;
  /** The extension point a policy module adds values of this knob under (models/additions.ts). */
  readonly open?: 'reinit' | 'reconnect' | 'guards';
  /** The full matrix (`--matrix full`: 2025-11-25's design space) holds it at its default: a knob that
   *  came with the 2026-07-28 revision (`--matrix migration` varies the revisions). */
  readonly fullMatrix?: 'default';
  /** Only this revision has what the knob configures: where the two sides can never speak it
   *  together, the knob is not applicable (`notApplicable`). */
  readonly revision?: Revision;
  /** The same, per value of a set knob. */
  readonly valueRevision?: Readonly<Record<string, Revision>>;
  /** Files written before the knob existed lack it: read there as its default (sim/core/schemas.ts). */
  readonly defaultWhenAbsent?: true;
  /** A knob the protocol as published does not have: the proposal it models (what a report names when
   *  the knob is the only fix it finds). */
  readonly proposal?: string;
}

export type KnobTable = Readonly<Record<string, KnobSpec>>;
export type Side = 'server' | 'client';

export const SERVER_KNOBS = {
  reinit: {
    values: ['honor-last', 'pin-first', 'reject', 'idempotent', 'new-session'],
    default: 'honor-last',
    meaning: 'a second initialize on an existing session',
    open: 'reinit',
    revision: '2025-11-25',
    describe: {
      'honor-last': 'intersect and adopt the new capability set (spec-literal)',
      'pin-first': "keep the first handshake's set and answer with the original result",
      reject: 'answer JSON-RPC -32600 with HTTP 400 (the official TypeScript SDK)',
      idempotent: "return the server's full set whatever the client sent",
      'new-session': 'issue a fresh session id',
    },
  },
  streaming: {
    values: ['negotiated', 'accept-header'],
    default: 'negotiated',
    meaning: 'when a tools/call is answered with an SSE stream',
    describe: {
      negotiated: "when the session's negotiated capabilities include tools.streaming",
      'accept-header': "when the request's Accept lists text/event-stream",
    },
  },
  advertise: {
    values: ['static', 'per-transport'],
    default: 'static',
    meaning: 'how the advertised capability set is computed',
    revision: '2025-11-25',
    describe: {
      static: 'fixed at handshake against the preferred transport',
      'per-transport': 'recomputed once the transport is selected',
    },
  },
  protocol: {
    values: ['2025-11-25', '2026-07-28', 'dual'],
    default: '2025-11-25',
    meaning: 'the MCP revision the server speaks',
    fullMatrix: 'default',
    defaultWhenAbsent: true,
    describe: {
      '2025-11-25': 'sessions (Mcp-Session-Id), the initialize handshake, Last-Event-ID resumption',
      '2026-07-28': "sessionless: capabilities in every request's _meta, server/discover, no resumption",
      dual: 'both: a request carrying the new _meta is served statelessly, an initialize opens a legacy session',
    },
  },
  idempotency: {
    values: ['none', 'request-key'],
    default: 'none',
    meaning: 'what the server does with a tools/call it has already run, sent again after a failed attempt',
    proposal: 'the closed SEP-3182, server-side idempotency',
    fullMatrix: 'default',
    defaultWhenAbsent: true,
    revision: '2025-11-25',
    describe: {
      none: 'runs the tool again (the protocol as published)',
      'request-key':
        "answers the call's first result without running the tool again, by its request key, in any session (a proposal: the closed SEP-3182)",
    },
  },
} as const satisfies KnobTable;

export const CLIENT_KNOBS = {
  reconnect: {
    values: ['replay-mutable', 'replay-cached', 'new-session'],
    default: 'replay-mutable',
    meaning: 'what the client does after a failed call',
    open: 'reconnect',
    revision: '2025-11-25',
    describe: {
      'replay-mutable': 're-send initialize on the same session, built from the (possibly reset) config',
      'replay-cached': 're-send the cached, validated first handshake on the same session',
      'new-session': 'drop the session id and open a new session',
    },
  },
  accept: {
    values: ['always', 'from-config'],
    default: 'always',
    meaning: 'the Accept header of every POST',
    describe: {
      always: 'application/json, text/event-stream (the spec MUST)',
      'from-config': 'text/event-stream only while the config says streaming',
    },
  },
  parser: {
    values: ['pinned', 'adaptive'],
    default: 'pinned',
    meaning: 'how a tools/call response is parsed',
    describe: {
      pinned: "bound to what the session's first handshake negotiated",
      adaptive: "dispatches on the response's Content-Type and the negotiated transport",
    },
  },
  guards: {
    values: ['content-type', 'compare-init', 'probe'],
    default: '',
    meaning: "the client's guards: any subset, joined with '+' (empty: none)",
    subset: true,
    open: 'guards',
    valueRevision: { 'compare-init': '2025-11-25', probe: '2025-11-25' },
    describe: {
      'content-type': 'record-000 detector 1: the tools/call Content-Type must match the negotiated mode',
      'compare-init': 'record-000 detector 2: a narrowed InitializeResult on reconnect kills the session',
      probe: 'record-003 mitigation: after a transport mismatch, probe before admitting a transport-dependent capability',
    },
  },
  protocol: {
    values: ['2025-11-25', '2026-07-28', 'negotiate'],
    default: '2025-11-25',
    meaning: 'the MCP revision the client speaks',
    fullMatrix: 'default',
    defaultWhenAbsent: true,
    describe: {
      '2025-11-25': 'initialize, then calls on the session',
      '2026-07-28': 'every request stands alone, its capabilities built from the current config',
      negotiate: 'server/discover first; initialize when the server answers as a legacy one',
    },
  },
  reissue: {
    values: ['always', 'idempotent-only', 'never'],
    default: 'always',
    meaning: 'which calls the client sends again after a broken stream or a failed attempt',
    fullMatrix: 'default',
    defaultWhenAbsent: true,
    describe: {
      always: 'every call, once (2026-07-28: the MUST after a broken stream; 2025-11-25: the retry-once)',
      'idempotent-only': 'only calls whose tool is annotated idempotentHint: true; the others fail loudly',
      never: "none: the failed attempt is the call's error",
    },
  },
} as const satisfies KnobTable;

type ValuesOf<S> = S extends { values: readonly (infer V extends string)[] } ? V : never;

/** A built-in value, or (for the open knobs) any name a policy module registered. */
type Open<T extends string> = T | (string & {});
type ValueOf<S> = S extends { open: string } ? Open<ValuesOf<S>> : ValuesOf<S>;
/** A side's policy: a value per knob (a set knob's, a list). */
type PolicyOf<T> = { -readonly [K in keyof T]: T[K] extends { subset: true } ? ValueOf<T[K]>[] : ValueOf<T[K]> };

export type ServerPolicy = PolicyOf<typeof SERVER_KNOBS>;
export type ClientPolicy = PolicyOf<typeof CLIENT_KNOBS>;

export type ReinitPolicy = ServerPolicy['reinit'];
export type StreamingPolicy = ServerPolicy['streaming'];
export type AdvertisePolicy = ServerPolicy['advertise'];
export type ServerProtocol = ServerPolicy['protocol'];
export type IdempotencyPolicy = ServerPolicy['idempotency'];
export type ReconnectPolicy = ClientPolicy['reconnect'];
export type AcceptPolicy = ClientPolicy['accept'];
export type ParserPolicy = ClientPolicy['parser'];
export type Guard = ClientPolicy['guards'][number];
export type ClientProtocol = ClientPolicy['protocol'];
export type ReissuePolicy = ClientPolicy['reissue'];

/** The revision a request of this combination's client travels in, once negotiated. */
export type Revision = '2025-11-25' | '2026-07-28';
export const MODERN = '2026-07-28' as const;

/** A combination: a policy per side. Where policy modules declare knobs (`ModuleKnob`), each side
 *  also holds their values, after the built-in knobs; without such modules it has exactly these. */
export interface Combination {
  server: ServerPolicy;
  client: ClientPolicy;
}

export const KNOB_TABLES: Readonly<Record<Side, KnobTable>> = { server: SERVER_KNOBS, client: CLIENT_KNOBS };

/** A knob a policy module declares (`server.knobs.<name>`, `client.knobs.<name>`): one value per
 *  combination, never a set, applicable under every revision. */
export interface ModuleKnob extends KnobSpec {
  /** `side.knob`, unique among every knob of the side. */
  readonly name: string;
  readonly side: Side;
  readonly knob: string;
}

/** A side's policy with every knob at its default. */
function defaultsOf(table: KnobTable): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, spec] of Object.entries(table)) out[k] = spec.subset ? (spec.default === '' ? [] : spec.default.split('+')) : spec.default;
  return out;
}

export const DEFAULT_SERVER = defaultsOf(SERVER_KNOBS) as ServerPolicy;
export const DEFAULT_CLIENT = defaultsOf(CLIENT_KNOBS) as ClientPolicy;

export type ServerOverrides = Partial<ServerPolicy>;
export type ClientOverrides = Partial<ClientPolicy>;

/** A knob's value as the CLI writes it: a set's members joined with '+'. */
export function knobText(value: unknown): string {
  return Array.isArray(value) ? value.join('+') : String(value);
}

/** The knobs a side's policy holds, in order: the built-in ones, then those policy modules declared. */
export function policyKnobs(side: Side, policy: object): string[] {
  const table = KNOB_TABLES[side];
  const extra = Object.keys(policy).filter((k) => !Object.hasOwn(table, k));
  return extra.length === 0 ? Object.keys(table) : [...Object.keys(table), ...extra];
}

function formatSide(side: Side, p: object): string {
  const values = p as Record<string, unknown>;
  return policyKnobs(side, p)
    .map((k) => `${k}=${knobText(values[k])}`)
    .join(',');
}

/** `reinit=honor-last,streaming=negotiated,advertise=static,protocol=2025-11-25`: the compact form the CLI and reports use. */
export function formatServer(p: ServerPolicy): string {
  return formatSide('server', p);
}

export function formatClient(p: ClientPolicy): string {
  return formatSide('client', p);
}

export function formatCombination(c: Combination): string {
  return `server ${formatServer(c.server)} · client ${formatClient(c.client)}`;
}

const NO_KNOBS: Readonly<Record<string, string>> = Object.freeze({});

// Asked on every reconnect decision, handshake, guarded response and faulted request, and a policy
// (or combination) is one immutable object for all of a run's steps: worked out once per object.
const knobValuesOf = new WeakMap<object, Readonly<Record<string, string>>>();

/** The values of the knobs policy modules declared, as `side.knob` → value: what their hooks read. */
export function moduleKnobValues(side: Side, policy: object): Readonly<Record<string, string>> {
  let values = knobValuesOf.get(policy);
  if (values === undefined) {
    const table = KNOB_TABLES[side];
    let out: Record<string, string> | undefined;
    for (const k of Object.keys(policy))
      if (!Object.hasOwn(table, k)) (out ??= {})[`${side}.${k}`] = knobText((policy as Record<string, unknown>)[k]);
    values = out ?? NO_KNOBS;
    knobValuesOf.set(policy, values);
  }
  return values;
}

/** Both sides' `moduleKnobValues`: what a fault's or a property's hooks read. */
export function combinationKnobValues(c: Combination): Readonly<Record<string, string>> {
  let values = knobValuesOf.get(c);
  if (values === undefined) {
    const server = moduleKnobValues('server', c.server);
    const client = moduleKnobValues('client', c.client);
    values = server === NO_KNOBS ? client : client === NO_KNOBS ? server : { ...server, ...client };
    knobValuesOf.set(c, values);
  }
  return values;
}

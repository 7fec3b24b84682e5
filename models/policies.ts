// The policy vocabulary of DESIGN.md: knobs, their values and defaults. These names are stable:
// the CLI, the reports and the tests all use exactly these strings. `server.reinit`,
// `client.reconnect` and `client.guards` are open: a policy module may register more values
// (registry.ts); `knobValues` lists the built-ins followed by those.
import { EXTENSIONS } from './registry.ts';

export const SERVER_KNOBS = {
  reinit: {
    values: ['honor-last', 'pin-first', 'reject', 'idempotent', 'new-session'],
    default: 'honor-last',
    meaning: 'a second initialize on an existing session',
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
    describe: {
      static: 'fixed at handshake against the preferred transport',
      'per-transport': 'recomputed once the transport is selected',
    },
  },
} as const;

export const CLIENT_KNOBS = {
  reconnect: {
    values: ['replay-mutable', 'replay-cached', 'new-session'],
    default: 'replay-mutable',
    meaning: 'what the client does after a failed call',
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
    describe: {
      'content-type': 'seed-000 detector 1: the tools/call Content-Type must match the negotiated mode',
      'compare-init': 'seed-000 detector 2: a narrowed InitializeResult on reconnect kills the session',
      probe: 'seed-003 mitigation: after a transport mismatch, probe before admitting a transport-dependent capability',
    },
  },
} as const;

type ValueOf<K> = K extends { values: readonly (infer V)[] } ? V : never;

/** A built-in value, or (for the open knobs) any name a policy module registered. */
type Open<T extends string> = T | (string & {});

export type ReinitPolicy = Open<ValueOf<typeof SERVER_KNOBS.reinit>>;
export type StreamingPolicy = ValueOf<typeof SERVER_KNOBS.streaming>;
export type AdvertisePolicy = ValueOf<typeof SERVER_KNOBS.advertise>;
export type ReconnectPolicy = Open<ValueOf<typeof CLIENT_KNOBS.reconnect>>;
export type AcceptPolicy = ValueOf<typeof CLIENT_KNOBS.accept>;
export type ParserPolicy = ValueOf<typeof CLIENT_KNOBS.parser>;
export type Guard = Open<ValueOf<typeof CLIENT_KNOBS.guards>>;

/** The open knobs and where their extensions register. */
const OPEN_KNOBS: Record<string, keyof typeof EXTENSIONS> = { 'server.reinit': 'reinit', 'client.reconnect': 'reconnect', 'client.guards': 'guards' };

/** Every value of a knob: the built-ins, then those policy modules registered. */
export function knobValues(side: 'server' | 'client', knob: string): string[] {
  const table: Record<string, { values: readonly string[] }> = side === 'server' ? SERVER_KNOBS : CLIENT_KNOBS;
  const builtin = Object.hasOwn(table, knob) ? [...table[knob]!.values] : [];
  const open = OPEN_KNOBS[`${side}.${knob}`];
  return open ? [...builtin, ...EXTENSIONS[open].names()] : builtin;
}

/** What a value means, for `list` and the reports. */
export function describeValue(side: 'server' | 'client', knob: string, value: string): string {
  const table: Record<string, { describe: Record<string, string> }> = side === 'server' ? SERVER_KNOBS : CLIENT_KNOBS;
  const builtin = Object.hasOwn(table, knob) ? table[knob]!.describe[value] : undefined;
  if (builtin !== undefined) return builtin;
  const open = OPEN_KNOBS[`${side}.${knob}`];
  const ext = open ? EXTENSIONS[open].get(value) : undefined;
  return ext ? `${ext.describe ?? '(no description)'} [from ${ext.source}]` : '';
}

export interface ServerPolicy {
  reinit: ReinitPolicy;
  streaming: StreamingPolicy;
  advertise: AdvertisePolicy;
}

export interface ClientPolicy {
  reconnect: ReconnectPolicy;
  accept: AcceptPolicy;
  parser: ParserPolicy;
  /** Sorted, without duplicates, so that equal policies serialize equally. */
  guards: Guard[];
}

export interface Combination {
  server: ServerPolicy;
  client: ClientPolicy;
}

export const DEFAULT_SERVER: ServerPolicy = {
  reinit: SERVER_KNOBS.reinit.default,
  streaming: SERVER_KNOBS.streaming.default,
  advertise: SERVER_KNOBS.advertise.default,
};

export const DEFAULT_CLIENT: ClientPolicy = {
  reconnect: CLIENT_KNOBS.reconnect.default,
  accept: CLIENT_KNOBS.accept.default,
  parser: CLIENT_KNOBS.parser.default,
  guards: [],
};

export type ServerOverrides = Partial<ServerPolicy>;
export type ClientOverrides = Partial<ClientPolicy>;

/** A full combination from partial overrides; unspecified knobs take their defaults. */
export function combination(over: { server?: ServerOverrides; client?: ClientOverrides } = {}): Combination {
  const client = { ...DEFAULT_CLIENT, ...over.client };
  return {
    server: { ...DEFAULT_SERVER, ...over.server },
    client: { ...client, guards: normalizeGuards(client.guards) },
  };
}

export function normalizeGuards(guards: readonly Guard[]): Guard[] {
  return knobValues('client', 'guards').filter((g) => guards.includes(g));
}

/** `reinit=honor-last,streaming=negotiated,advertise=static`: the compact form the CLI and reports use. */
export function formatServer(p: ServerPolicy): string {
  return `reinit=${p.reinit},streaming=${p.streaming},advertise=${p.advertise}`;
}

export function formatClient(p: ClientPolicy): string {
  return `reconnect=${p.reconnect},accept=${p.accept},parser=${p.parser},guards=${p.guards.join('+')}`;
}

export function formatCombination(c: Combination): string {
  return `server ${formatServer(c.server)} · client ${formatClient(c.client)}`;
}

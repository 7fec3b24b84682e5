// The built-in policy vocabulary of docs/design.md: knobs, their values, defaults and meanings, the
// policy types, and what a combination can reach. These names are stable: the CLI, the reports and
// the tests all use exactly these strings. Names and data only, below the registry (additions.ts),
// so the definitions a policy module registers can name these types without an import cycle; the
// rest of the project imports them through policies.ts, which adds the values modules register.

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
  protocol: {
    values: ['2025-11-25', '2026-07-28', 'dual'],
    default: '2025-11-25',
    meaning: 'the MCP revision the server speaks',
    describe: {
      '2025-11-25': 'sessions (Mcp-Session-Id), the initialize handshake, Last-Event-ID resumption',
      '2026-07-28': "sessionless: capabilities in every request's _meta, server/discover, no resumption",
      dual: 'both: a request carrying the new _meta is served statelessly, an initialize opens a legacy session',
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
  protocol: {
    values: ['2025-11-25', '2026-07-28', 'negotiate'],
    default: '2025-11-25',
    meaning: 'the MCP revision the client speaks',
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
    describe: {
      always: 'every call, once (2026-07-28: the MUST after a broken stream; 2025-11-25: the retry-once)',
      'idempotent-only': 'only calls whose tool is annotated idempotentHint: true; the others fail loudly',
      never: "none: the failed attempt is the call's error",
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
export type ServerProtocol = ValueOf<typeof SERVER_KNOBS.protocol>;
export type ClientProtocol = ValueOf<typeof CLIENT_KNOBS.protocol>;
export type ReissuePolicy = ValueOf<typeof CLIENT_KNOBS.reissue>;

/** The revision a request of this combination's client travels in, once negotiated. */
export type Revision = '2025-11-25' | '2026-07-28';
export const MODERN = '2026-07-28' as const;

export interface ServerPolicy {
  reinit: ReinitPolicy;
  streaming: StreamingPolicy;
  advertise: AdvertisePolicy;
  protocol: ServerProtocol;
}

export interface ClientPolicy {
  reconnect: ReconnectPolicy;
  accept: AcceptPolicy;
  parser: ParserPolicy;
  /** Sorted, without duplicates, so that equal policies serialize equally. */
  guards: Guard[];
  protocol: ClientProtocol;
  reissue: ReissuePolicy;
}

export interface Combination {
  server: ServerPolicy;
  client: ClientPolicy;
}

export const DEFAULT_SERVER: ServerPolicy = {
  reinit: SERVER_KNOBS.reinit.default,
  streaming: SERVER_KNOBS.streaming.default,
  advertise: SERVER_KNOBS.advertise.default,
  protocol: SERVER_KNOBS.protocol.default,
};

export const DEFAULT_CLIENT: ClientPolicy = {
  reconnect: CLIENT_KNOBS.reconnect.default,
  accept: CLIENT_KNOBS.accept.default,
  parser: CLIENT_KNOBS.parser.default,
  guards: [],
  protocol: CLIENT_KNOBS.protocol.default,
  reissue: CLIENT_KNOBS.reissue.default,
};

export type ServerOverrides = Partial<ServerPolicy>;
export type ClientOverrides = Partial<ClientPolicy>;

/** `reinit=honor-last,streaming=negotiated,advertise=static`: the compact form the CLI and reports use. */
export function formatServer(p: ServerPolicy): string {
  return `reinit=${p.reinit},streaming=${p.streaming},advertise=${p.advertise},protocol=${p.protocol}`;
}

export function formatClient(p: ClientPolicy): string {
  return `reconnect=${p.reconnect},accept=${p.accept},parser=${p.parser},guards=${p.guards.join('+')},protocol=${p.protocol},reissue=${p.reissue}`;
}

export function formatCombination(c: Combination): string {
  return `server ${formatServer(c.server)} · client ${formatClient(c.client)}`;
}

/** Whether a combination can ever speak a revision: the server serves it and the client sends it. */
export function speaks(c: Combination, revision: Revision): boolean {
  const server = c.server.protocol === 'dual' || c.server.protocol === revision;
  const client = c.client.protocol === 'negotiate' || c.client.protocol === revision;
  return server && client;
}

/**
 * The knobs (and guard values) that configure a mechanism this combination can never reach, because
 * the revision that has it is not one both sides speak: sessions, `initialize` and transport fallback
 * exist only in 2025-11-25. Reports show them as "not applicable", never as if they had been tested.
 */
export function notApplicable(c: Combination): string[] {
  if (speaks(c, '2025-11-25')) return [];
  const out = ['server.reinit', 'server.advertise', 'client.reconnect'];
  for (const g of c.client.guards) if (SESSION_GUARDS.includes(g)) out.push(`client.guards=${g}`);
  return out;
}

/** The guards that check what only 2025-11-25 has (an `initialize` result, a session). */
const SESSION_GUARDS: readonly Guard[] = ['compare-init', 'probe'];

/**
 * `c` with every knob `notApplicable` names at its default (those guards dropped): a combination that
 * behaves as `c` in every run, since nothing it changes is ever reached. Combinations that differ only
 * in what they never reach share it, so the mitigation finder searches them once.
 */
export function applicableCombination(c: Combination): Combination {
  if (speaks(c, '2025-11-25')) return c;
  return {
    server: { ...c.server, reinit: DEFAULT_SERVER.reinit, advertise: DEFAULT_SERVER.advertise },
    client: { ...c.client, reconnect: DEFAULT_CLIENT.reconnect, guards: c.client.guards.filter((g) => !SESSION_GUARDS.includes(g)) },
  };
}

// The shapes of what a policy module adds to the open knobs (`server.reinit`, `client.reconnect`,
// `client.guards`; faults are in fault-def.ts): the definitions and the views their hooks get. Names
// and types only, so the registry (additions.ts) can hold definitions without importing the
// behaviour that uses them (reinit.ts, reconnect.ts, client-guards.ts), which itself reads the registry.
import type { CapabilitySet, Transport } from './capabilities.ts';
import type { ClientConfig, InitParams } from './client-context.ts';
import type { AdvertisePolicy } from './knobs.ts';

/** The combination's values of the knobs policy modules declared, as `side.knob` → value (models/knobs.ts
 *  `moduleKnobValues`): a server hook sees the server's, a client hook the client's. Empty without such knobs. */
export type KnobValues = Readonly<Record<string, string>>;

// server.reinit

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
  knobs: KnobValues;
}

export type ReinitStrategy = (input: ReinitInput) => ReinitDecision;

/** A `server.reinit` value: a built-in (reinit.ts), or one a policy module registers (additions.ts). */
export interface ReinitPolicyDef {
  name: string;
  /** One line for `list` and the reports. */
  describe?: string;
  /** What to do with a second `initialize` on a live session. */
  decide: ReinitStrategy;
  /** The capabilities a session opens with, before advertising (default: the server's set
   *  intersected with the client's). */
  opening?: (clientCaps: CapabilitySet) => CapabilitySet;
}

// client.reconnect

/** What a strategy sees of the client when a call has failed. */
export interface ReconnectView {
  session: { id: string; gone: boolean; dead: string | null } | null;
  knobs: KnobValues;
}

/** What a strategy sees when it builds the `initialize` it sends. */
export interface HandshakeView {
  config: ClientConfig;
  cached: InitParams | null;
  knobs: KnobValues;
}

/** A `client.reconnect` value: a built-in (reconnect.ts), or one a policy module registers. */
export interface ReconnectStrategyDef {
  name: string;
  /** One line for `list` and the reports. */
  describe?: string;
  /** After a failed call, and on a call to a dead session: replay `initialize` on the same session
   *  (a dead session then fails the call), open a new session, or keep the session as it is and send
   *  the call again on it (`keep`). A 404 always opens a new one. */
  afterFailure: (view: ReconnectView) => 'replay' | 'new-session' | 'keep';
  /** The `initialize` the client sends, on a first connect, a replay and a new session alike. */
  handshake: (view: HandshakeView) => InitParams;
}

// client.guards

/** A tools/call response as a guard sees it, before the parser reads it. */
export interface ResponseView {
  callId: number;
  contentType: string;
  /** The streaming mode the client holds as negotiated (its pinned binding, or the latest result). */
  negotiatedStreaming: boolean;
  session: { id: string; caps: CapabilitySet; firstCaps: CapabilitySet; transport: Transport; proposed: Transport };
  knobs: KnobValues;
}

/** An accepted re-initialize result as a guard sees it. */
export interface ReinitView {
  sessionId: string;
  firstCaps: CapabilitySet;
  incoming: CapabilitySet;
  knobs: KnobValues;
}

/** A `client.guards` value: a built-in (client-guards.ts), or one a policy module registers. */
export interface GuardDef {
  name: string;
  /** One line for `list` and the reports. */
  describe?: string;
  /** Null to let the response through, or why the attempt fails (loudly). */
  checkResponse?: (view: ResponseView) => string | null;
  /** Null to accept the re-initialize result, or why the session is dead. */
  checkReinitialize?: (view: ReinitView) => string | null;
  /** Built-in only: record 003's probe before admitting a transport-dependent capability. */
  probes?: boolean;
}

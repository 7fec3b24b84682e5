// The client's state as data: its mutable config, the session as it knows it, what is in flight,
// and the effects it asks the world to perform. Shared by the handshake and call reducers.
import {
  capSet,
  has,
  progressEncoding,
  type Capability,
  type CapabilitySet,
  type ProgressEncoding,
  type Transport,
} from './capabilities.ts';
import { JSON_TYPE, SSE_TYPE, type HttpRequest, type HttpResponse, type RequestBody, type TextContent } from './messages.ts';
import { CLIENT_KNOBS, MODERN, type ClientPolicy, type Revision } from './knobs.ts';
import { choose } from './knob-choice.ts';
import type { Raise, Reduction } from './reduction.ts';

export interface ClientConfig {
  streaming: boolean;
  transport: Transport;
}

/** What `config-reset` returns the config to. */
export const CONFIG_DEFAULTS: ClientConfig = { streaming: false, transport: 'streamable-http' };
/** What the operator configured before the run (record 000: streaming on). */
export const CONFIG_CONFIGURED: ClientConfig = { streaming: true, transport: 'streamable-http' };

export interface InitParams {
  capabilities: CapabilitySet;
  transport: Transport;
}

/** What a pinned parser expects, bound to a session's first InitializeResult (docs/design.md). */
export interface ParserBinding {
  streaming: boolean;
  progressInline: boolean;
}

export interface ClientSession {
  id: string;
  /** The latest InitializeResult's capabilities, as the client knows them. */
  caps: CapabilitySet;
  /** The transport the latest InitializeResult named. */
  transport: Transport;
  /** The transport this session's first handshake proposed (record 003's `preferred_transport`). */
  proposed: Transport;
  pinned: ParserBinding;
  firstCaps: CapabilitySet;
  probed: string[];
  /** The server answered 404: only a new session helps. */
  gone: boolean;
  /** Why the session is dead (a rejected re-initialize, a failed compare-init), or null. */
  dead: string | null;
}

export interface CallAttempt {
  callId: number;
  method: 'tools/call' | 'tools/list';
  progress: boolean;
  /** The tool is annotated `idempotentHint: true` (`client.reissue=idempotent-only` re-sends only these). */
  idempotent: boolean;
  attempt: 1 | 2;
}

/** What the client waits on, by `req`: the request whose answer it waits for (a resumed stream's
 *  GET, else the attempt itself). */
export type Inflight =
  | { kind: 'call'; req: number; call: CallAttempt; attemptId: number; resumed: boolean }
  | { kind: 'probe'; req: number; cap: string; attemptId: number; waiting: CallAttempt[] };

export type HandshakeKind = 'connect' | 'replay' | 'new-session';

export interface ClientContext {
  policy: ClientPolicy;
  /** The revision the client speaks: fixed by `client.protocol`, or null until `negotiate` has
   *  heard the server's answer to `server/discover`. */
  revision: Revision | null;
  config: ClientConfig;
  deadlineMs: number;
  nextReq: number;
  session: ClientSession | null;
  /** The first validated handshake this client made: what `replay-cached` re-sends. */
  cachedParams: InitParams | null;
  handshake: { kind: HandshakeKind; phase: 'discover' | 'initialize' | 'initialized'; req: number; params: InitParams } | null;
  /** In ascending `req` order. */
  inflight: readonly Inflight[];
  /** Calls waiting for a handshake to finish before they are (re)sent. */
  waiting: CallAttempt[];
}

export type ClientEvent =
  | { type: 'CONNECT' }
  | { type: 'CALL'; callId: number; method: 'tools/call' | 'tools/list'; progress: boolean; idempotent?: boolean }
  | { type: 'RESPONSE'; req: number; response: HttpResponse }
  | { type: 'DEADLINE'; req: number }
  | { type: 'CONFIG_RESET' }
  /** Raised by the client itself: a call attempt failed and waits for a reconnect. */
  | { type: 'ATTEMPT_FAILED' };

export type ClientNote =
  | { note: 'handshake-sent'; handshake: HandshakeKind; session: string | null; caps: CapabilitySet }
  | { note: 'session-opened'; session: string; caps: CapabilitySet; transport: Transport; pinned: ParserBinding }
  | { note: 'reinit-accepted'; session: string; caps: CapabilitySet; transport: Transport }
  | { note: 'session-id-changed'; from: string; to: string }
  | { note: 'fallback'; session: string; from: Transport; to: Transport }
  | { note: 'handshake-failed'; handshake: HandshakeKind; reason: string }
  | { note: 'session-dead'; session: string; reason: string }
  | { note: 'reconnect'; handshake: HandshakeKind; reason: string }
  | { note: 'attempt-failed'; callId: number; attempt: number; reason: string }
  | { note: 'admit'; callId: number; req: number; session: string; caps: { cap: Capability; encoding: ProgressEncoding }[] }
  | { note: 'read'; callId: number; req: number; contentType: string; expected: 'sse' | 'json' | 'any' }
  | { note: 'awaiting-progress'; callId: number; req: number }
  | { note: 'resume'; callId: number; req: number; lastEventId: string }
  | { note: 'probe'; cap: string; req: number; verdict: 'sent' | 'verified' | 'mismatch' | 'failed'; detail?: string }
  | { note: 'late-response'; req: number }
  | { note: 'config-reset'; config: ClientConfig }
  /** 2026-07-28: no session; the pinned parser is bound to the mode of the client's first request. */
  | { note: 'stateless'; caps: CapabilitySet; pinned: ParserBinding }
  | { note: 'discovered'; revision: Revision; reason: string };

export type CallEnd =
  | { end: 'result'; content: TextContent[] }
  | { end: 'error'; reason: string }
  /** Ended only by the client's deadline: the oracle decides whether that was silent. */
  | { end: 'deadline' };

export type ClientEffect =
  | { type: 'send'; req: number; request: HttpRequest }
  | { type: 'timer'; afterMs: number; event: ClientEvent }
  | ({ type: 'call-ended'; callId: number; attempts: number; req: number } & CallEnd)
  | { type: 'note'; note: ClientNote }
  | Raise<ClientEvent>;

export type R = Reduction<ClientContext, ClientEffect>;

export const note = (n: ClientNote): ClientEffect => ({ type: 'note', note: n });

/**
 * A copy of the client's context with some fields changed. The context's fields written out in one
 * literal give every context one shape: `{ ...ctx, field }` over contexts whose fields changed type
 * (null, then an object) goes megamorphic in V8 and was a fifth of the engine's time. Same key order.
 */
export function withContext(ctx: ClientContext, change: Partial<ClientContext>): ClientContext {
  const c: ClientContext = {
    policy: ctx.policy,
    revision: ctx.revision,
    config: ctx.config,
    deadlineMs: ctx.deadlineMs,
    nextReq: ctx.nextReq,
    session: ctx.session,
    cachedParams: ctx.cachedParams,
    handshake: ctx.handshake,
    inflight: ctx.inflight,
    waiting: ctx.waiting,
  };
  for (const k in change) (c as unknown as Record<string, unknown>)[k] = (change as Record<string, unknown>)[k];
  return c;
}

/** `withContext(ctx, { nextReq })` and `withContext(ctx, { inflight })` written out: a step of every
 *  request makes them, and the generic copy's loop over `change` is V8's megamorphic path. */
export function withNextReq(ctx: ClientContext, nextReq: number): ClientContext {
  return {
    policy: ctx.policy,
    revision: ctx.revision,
    config: ctx.config,
    deadlineMs: ctx.deadlineMs,
    nextReq,
    session: ctx.session,
    cachedParams: ctx.cachedParams,
    handshake: ctx.handshake,
    inflight: ctx.inflight,
    waiting: ctx.waiting,
  };
}

export function withInflight(ctx: ClientContext, inflight: Inflight[]): ClientContext {
  return {
    policy: ctx.policy,
    revision: ctx.revision,
    config: ctx.config,
    deadlineMs: ctx.deadlineMs,
    nextReq: ctx.nextReq,
    session: ctx.session,
    cachedParams: ctx.cachedParams,
    handshake: ctx.handshake,
    inflight,
    waiting: ctx.waiting,
  };
}

export function paramsFromConfig(config: ClientConfig): InitParams {
  const caps: Capability[] = ['tools', 'resources', 'streaming-progress'];
  if (config.streaming) caps.push('tools.streaming');
  return { capabilities: capSet(caps), transport: config.transport };
}

export function bindParser(caps: CapabilitySet): ParserBinding {
  return { streaming: has(caps, 'tools.streaming'), progressInline: has(caps, 'streaming-progress') };
}

/** Whether this call waits for progress, and in which encoding the client's parser expects it. */
export function expectedProgress(ctx: ClientContext, call: CallAttempt): ProgressEncoding | null {
  const s = ctx.session;
  if (!s || !call.progress || call.method !== 'tools/call') return null;
  const live = has(s.caps, 'streaming-progress') ? progressEncoding(s.transport) : null;
  const pinned = s.pinned.progressInline ? 'inline' : null;
  return choose(ctx.policy, 'parser', CLIENT_KNOBS.parser.values, (parser) => (parser === 'pinned' ? pinned : live));
}

/** The streaming mode the client holds as negotiated: its pinned binding, or the latest result. */
export function negotiatedStreaming(ctx: ClientContext): boolean {
  const s = ctx.session!;
  const live = has(s.caps, 'tools.streaming');
  return choose(ctx.policy, 'parser', CLIENT_KNOBS.parser.values, (parser) => (parser === 'pinned' ? s.pinned.streaming : live));
}

/** `request`'s options when none are given (one object, not a new one per request). */
const NO_OPTIONS: { sessionId?: string | null; lastEventId?: string; deadlineFor?: number } = Object.freeze({});
const ACCEPT_BOTH = `${JSON_TYPE}, ${SSE_TYPE}`;
/** The revision a model client of 2025-11-25 speaks, as its `MCP-Protocol-Version` names it. */
const LEGACY: Revision = '2025-11-25';

/** Build a request and the effects that send it with its deadline. */
export function request(
  ctx: ClientContext,
  body: RequestBody,
  opts: { sessionId?: string | null; lastEventId?: string; deadlineFor?: number } = NO_OPTIONS,
): { ctx: ClientContext; req: number; effects: ClientEffect[] } {
  const req = ctx.nextReq;
  const streamingAccept = choose(ctx.policy, 'accept', CLIENT_KNOBS.accept.values, (accept) => accept === 'always' || ctx.config.streaming);
  const sessionId = opts.sessionId === undefined ? ctx.session?.id : opts.sessionId;
  let headers: Record<string, string>;
  if (body.rpc !== 'resume' && body.rpc !== 'server/discover' && ctx.revision !== MODERN && opts.lastEventId === undefined) {
    // The commonest request's headers as one literal, in the order the general case below adds
    // them: a header added to a literal afterwards is a new backing store for its properties.
    const accept = streamingAccept ? ACCEPT_BOTH : JSON_TYPE;
    // 2025-11-25 Protocol Version Header: every request after initialize names the revision (the wire
    // client writes the version the real server negotiated, where it named another).
    headers =
      body.rpc === 'initialize' || !ctx.session
        ? sessionId
          ? { accept, 'content-type': JSON_TYPE, 'transfer-encoding': 'chunked', 'mcp-session-id': sessionId }
          : { accept, 'content-type': JSON_TYPE, 'transfer-encoding': 'chunked' }
        : sessionId
          ? {
              accept,
              'content-type': JSON_TYPE,
              'transfer-encoding': 'chunked',
              'mcp-session-id': sessionId,
              'mcp-protocol-version': LEGACY,
            }
          : { accept, 'content-type': JSON_TYPE, 'transfer-encoding': 'chunked', 'mcp-protocol-version': LEGACY };
  } else {
    headers =
      body.rpc === 'resume'
        ? { accept: SSE_TYPE }
        : { accept: streamingAccept ? ACCEPT_BOTH : JSON_TYPE, 'content-type': JSON_TYPE, 'transfer-encoding': 'chunked' };
    if (ctx.revision === MODERN || body.rpc === 'server/discover') {
      // 2026-07-28: no session; every request names its revision (header and `_meta`), its method and
      // tool, and carries the client's capabilities as they are now (a reset config shows at once).
      headers['mcp-protocol-version'] = MODERN;
      headers['mcp-method'] = body.rpc;
      if (body.rpc === 'tools/call') headers['mcp-name'] = body.tool;
      if (body.rpc === 'tools/call' || body.rpc === 'tools/list' || body.rpc === 'server/discover') {
        body = { ...body, meta: { protocolVersion: MODERN, clientCapabilities: paramsFromConfig(ctx.config).capabilities } };
      }
    } else if (ctx.session && body.rpc !== 'initialize') headers['mcp-protocol-version'] = LEGACY;
    if (sessionId) headers['mcp-session-id'] = sessionId;
    if (opts.lastEventId !== undefined) headers['last-event-id'] = opts.lastEventId;
  }
  const send: ClientEffect = { type: 'send', req, request: { method: body.rpc === 'resume' ? 'GET' : 'POST', headers, body } };
  // A resumed stream keeps the deadline of the attempt it belongs to. (Both effects in one literal:
  // a push onto a literal of one grows it to seventeen slots.)
  const effects: ClientEffect[] =
    opts.deadlineFor === undefined ? [send, { type: 'timer', afterMs: ctx.deadlineMs, event: { type: 'DEADLINE', req } }] : [send];
  return { ctx: withNextReq(ctx, req + 1), req, effects };
}

export function initialContext(input: { policy: ClientPolicy; deadlineMs: number; config?: ClientConfig }): ClientContext {
  return {
    policy: input.policy,
    revision: input.policy.protocol === 'negotiate' ? null : input.policy.protocol,
    config: input.config ?? CONFIG_CONFIGURED,
    deadlineMs: input.deadlineMs,
    nextReq: 0,
    session: null,
    cachedParams: null,
    handshake: null,
    inflight: [],
    waiting: [],
  };
}

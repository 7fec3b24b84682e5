// The client's handshakes: a first connect, a replayed `initialize` on the same session
// (`replay-mutable` builds it from the config, `replay-cached` re-sends the first one), and a new
// session. A replay does not re-pin the parser: the client believes it is the same session.
import {
  type ClientContext,
  type ClientEffect,
  type ClientEvent,
  type HandshakeKind,
  type InitParams,
  type R,
  bindParser,
  note,
  paramsFromConfig,
  request,
  withContext,
} from './client-context.ts';
import { MODERN, moduleKnobValues } from './policies.ts';
import { abandonInflight, failAll, sendAll } from './client-calls.ts';
import { guardSets, reinitializeRefusal } from './client-guards.ts';
import { reconnectStrategy, reconnectValues } from './reconnect.ts';
import { choose } from './knob-choice.ts';
import type { PolicyAdditions } from './additions.ts';
import { sameSet } from './capabilities.ts';
import { finalMessage, isResult, type DiscoverResult, type HttpResponse, type InitializeResult } from './messages.ts';

type Response = Extract<ClientEvent, { type: 'RESPONSE' }>;

function send(ctx: ClientContext, kind: HandshakeKind, params: InitParams): R {
  const sessionId = kind === 'replay' ? ctx.session!.id : null;
  const sent = request(ctx, { rpc: 'initialize', capabilities: params.capabilities, transport: params.transport }, { sessionId });
  return {
    context: withContext(sent.ctx, { handshake: { kind, phase: 'initialize', req: sent.req, params } }),
    effects: [note({ note: 'handshake-sent', handshake: kind, session: sessionId, caps: params.capabilities }), ...sent.effects],
  };
}

const sameParams = (a: InitParams, b: InitParams) => a.transport === b.transport && sameSet(a.capabilities, b.capabilities);

function freshParams(ctx: ClientContext, additions: PolicyAdditions): InitParams {
  const view = { config: ctx.config, cached: ctx.cachedParams, knobs: moduleKnobValues('client', ctx.policy) };
  return choose(ctx.policy, 'reconnect', reconnectValues(additions), (r) => reconnectStrategy(r, additions).handshake(view), sameParams);
}

export function startConnect(ctx: ClientContext, _e: unknown, additions: PolicyAdditions): R {
  return send(withContext(ctx, { session: null }), 'connect', freshParams(ctx, additions));
}

export function startNewSession(ctx: ClientContext, _e: unknown, additions: PolicyAdditions): R {
  const reason = ctx.session?.gone ? 'session not found' : ctx.session?.dead ? 'session dead' : 'call failed';
  const abandoned = abandonInflight(ctx, `session ${ctx.session?.id ?? '?'} abandoned for a new one`);
  const r = send({ ...abandoned.context, session: null }, 'new-session', freshParams(ctx, additions));
  return {
    context: r.context,
    effects: [note({ note: 'reconnect', handshake: 'new-session', reason }), ...abandoned.effects, ...r.effects],
  };
}

export function startReplay(ctx: ClientContext, _e: unknown, additions: PolicyAdditions): R {
  const r = send(ctx, 'replay', freshParams(ctx, additions));
  return { context: r.context, effects: [note({ note: 'reconnect', handshake: 'replay', reason: 'call failed' }), ...r.effects] };
}

function initializeResult(res: HttpResponse): InitializeResult {
  const m = finalMessage(res);
  if (!isResult(m)) throw new Error('an accepted initialize reply carries a result');
  return m.result as InitializeResult;
}

function sendInitialized(ctx: ClientContext, effects: ClientEffect[]): R {
  const sent = request(ctx, { rpc: 'notifications/initialized' });
  return {
    context: withContext(sent.ctx, { handshake: { ...ctx.handshake!, phase: 'initialized', req: sent.req } }),
    effects: [...effects, ...sent.effects],
  };
}

/** A new session's first InitializeResult: adopt it and pin the parser to it. */
export function adoptNewSession(ctx: ClientContext, e: Response): R {
  const result = initializeResult(e.response);
  const id = e.response.headers['mcp-session-id'] ?? '';
  const params = ctx.handshake!.params;
  const pinned = bindParser(result.capabilities);
  const session = {
    id,
    caps: result.capabilities,
    transport: result.transport,
    proposed: params.transport,
    pinned,
    firstCaps: result.capabilities,
    probed: [],
    gone: false,
    dead: null,
  };
  const effects: ClientEffect[] = [
    note({ note: 'session-opened', session: id, caps: result.capabilities, transport: result.transport, pinned }),
  ];
  if (result.transport !== params.transport)
    effects.push(note({ note: 'fallback', session: id, from: params.transport, to: result.transport }));
  return sendInitialized(withContext(ctx, { session, cachedParams: ctx.cachedParams ?? params }), effects);
}

/** A replayed handshake's result: the session's capabilities and transport follow it; the parser does not. */
export function adoptReplayResult(ctx: ClientContext, e: Response): R {
  const result = initializeResult(e.response);
  const s = ctx.session!;
  const id = e.response.headers['mcp-session-id'] ?? s.id;
  const effects: ClientEffect[] = [note({ note: 'reinit-accepted', session: id, caps: result.capabilities, transport: result.transport })];
  if (id !== s.id) effects.push(note({ note: 'session-id-changed', from: s.id, to: id }));
  if (result.transport !== s.transport) effects.push(note({ note: 'fallback', session: id, from: s.transport, to: result.transport }));
  return sendInitialized(withContext(ctx, { session: { ...s, id, caps: result.capabilities, transport: result.transport } }), effects);
}

/** The handshake finished: send every call that waited for it. */
export function completeHandshake(ctx: ClientContext, _e: unknown, additions: PolicyAdditions): R {
  const calls = ctx.waiting;
  return sendAll(withContext(ctx, { handshake: null, waiting: [] }), calls, additions);
}

function replyReason(e: ClientEvent): string {
  if (e.type === 'DEADLINE') return 'deadline';
  if (e.type !== 'RESPONSE') return e.type;
  const m = finalMessage(e.response);
  return `HTTP ${e.response.status}${m && 'error' in m ? ` (${m.error.code} ${m.error.message})` : ''}`;
}

/** The handshake failed: its waiting calls' attempts fail with it. */
export function failHandshake(ctx: ClientContext, e: ClientEvent): R {
  const hs = ctx.handshake!;
  const reason = `${hs.kind} handshake failed: ${replyReason(e)}`;
  const session = hs.kind === 'replay' ? ctx.session : null;
  const r = failAll(withContext(ctx, { handshake: null, session, waiting: [] }), ctx.waiting, hs.req, reason);
  return { context: r.context, effects: [note({ note: 'handshake-failed', handshake: hs.kind, reason: replyReason(e) }), ...r.effects] };
}

/** "A session's negotiated capabilities are immutable after first handshake, or the session is dead." */
export function killSession(ctx: ClientContext, e: ClientEvent, additions: PolicyAdditions): R {
  const s = ctx.session!;
  const reason =
    e.type === 'RESPONSE' && e.response.status === 400
      ? `re-initialize rejected: ${replyReason(e)}`
      : (narrowingError(ctx, e, additions) ?? 'killed');
  const dead = { ...s, dead: reason };
  const r = failAll(withContext(ctx, { handshake: null, session: dead, waiting: [] }), ctx.waiting, ctx.handshake?.req ?? -1, reason);
  return { context: r.context, effects: [note({ note: 'session-dead', session: s.id, reason }), ...r.effects] };
}

/** The guards' verdict on an accepted re-initialize result (record 000's `compare-init`): null when
 *  every guard passes it, else why the session is dead. */
export function narrowingError(ctx: ClientContext, e: ClientEvent, additions: PolicyAdditions): string | null {
  if (e.type !== 'RESPONSE' || !ctx.session) return null;
  const m = finalMessage(e.response);
  if (!isResult(m)) return null;
  const incoming = (m.result as InitializeResult).capabilities;
  const knobs = moduleKnobValues('client', ctx.policy);
  const view = { sessionId: ctx.session.id, firstCaps: ctx.session.firstCaps, incoming, knobs };
  return choose(ctx.policy, 'guards', guardSets(additions), (guards) => reinitializeRefusal(guards, view, additions));
}

/** 2026-07-28: nothing to open. The "session" the client keeps is its own view: no id, the
 *  capabilities it declares now, and the parser binding of its first request (its connect-time
 *  config), which a later config reset does not re-pin. */
export function startStateless(ctx: ClientContext, _e: unknown, additions: PolicyAdditions): R {
  const caps = paramsFromConfig(ctx.config).capabilities;
  const pinned = bindParser(caps);
  const session = {
    id: '',
    caps,
    transport: 'streamable-http' as const,
    proposed: 'streamable-http' as const,
    pinned,
    firstCaps: caps,
    probed: [],
    gone: false,
    dead: null,
  };
  const r = sendAll(withContext(ctx, { revision: MODERN, session, handshake: null, waiting: [] }), ctx.waiting, additions);
  return { context: r.context, effects: [note({ note: 'stateless', caps, pinned }), ...r.effects] };
}

/** `client.protocol=negotiate`: ask the server what it speaks before choosing a revision. */
export function startDiscover(ctx: ClientContext): R {
  const params = paramsFromConfig(ctx.config);
  const sent = request(
    ctx,
    { rpc: 'server/discover', meta: { protocolVersion: MODERN, clientCapabilities: params.capabilities } },
    { sessionId: null },
  );
  return {
    context: withContext(sent.ctx, { session: null, handshake: { kind: 'connect', phase: 'discover', req: sent.req, params } }),
    effects: sent.effects,
  };
}

/** The server answered `server/discover` listing 2026-07-28: speak it from now on. */
export function adoptDiscovered(ctx: ClientContext, e: ClientEvent, additions: PolicyAdditions): R {
  const r = startStateless(withContext(ctx, { handshake: null }), e, additions);
  return {
    context: r.context,
    effects: [note({ note: 'discovered', revision: MODERN, reason: 'server/discover lists 2026-07-28' }), ...r.effects],
  };
}

/** The server answered `server/discover` as a 2025-11-25 server does (an error): initialize instead. */
export function fallBackToInitialize(ctx: ClientContext, e: ClientEvent, additions: PolicyAdditions): R {
  const r = startConnect(withContext(ctx, { revision: '2025-11-25', handshake: null }), e, additions);
  return { context: r.context, effects: [note({ note: 'discovered', revision: '2025-11-25', reason: replyReason(e) }), ...r.effects] };
}

/** Whether a reply to `server/discover` says the server speaks 2026-07-28. */
export function discoverListsModern(e: ClientEvent): boolean {
  if (e.type !== 'RESPONSE' || e.response.status !== 200) return false;
  const m = finalMessage(e.response);
  return (
    isResult(m) &&
    Array.isArray((m.result as DiscoverResult).supportedVersions) &&
    (m.result as DiscoverResult).supportedVersions.includes(MODERN)
  );
}

/** A reply to `server/discover` that a 2025-11-25 server would give: an HTTP 4xx or a JSON-RPC error. */
export function discoverAnsweredAsLegacy(e: ClientEvent): boolean {
  if (e.type !== 'RESPONSE') return false;
  const m = finalMessage(e.response);
  return (e.response.status >= 400 && e.response.status < 500) || (m !== undefined && 'error' in m);
}

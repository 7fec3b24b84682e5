// The server machine: a session table keyed by `Mcp-Session-Id`, the `server.*` policies, and how
// each transport encodes a tool's result and progress. Its transitions are the branches a request
// can take (a new session, each re-initialize policy, a call, a 404…), so coverage of the graph
// says which server behaviours a run exercised.
import { setup } from 'xstate';
import { has, progressEncoding, SERVER_CAPABILITIES, type CapabilitySet, type ProgressEncoding, type Transport } from './capabilities.ts';
import {
  CONNECTION_RESET,
  emptyResponse,
  errorResponse,
  jsonResponse,
  JSONRPC,
  SSE_TYPE,
  type CallResult,
  type HttpRequest,
  type HttpResponse,
  type InitializeResult,
  type JsonRpcMessage,
  type SseEvent,
} from './messages.ts';
import { MODERN, type ServerPolicy } from './policies.ts';
import { effectAction, reducerActions, type Reduction } from './reducers.ts';
import { advertised, openingCaps, reinitPolicy } from './reinit.ts';
import { selectTransport } from './transport.ts';

export interface ServerSession {
  id: string;
  caps: CapabilitySet;
  firstCaps: CapabilitySet;
  transport: Transport;
  /** SSE streams this session has sent, by stream id, kept for `Last-Event-ID` resumption. */
  streams: Record<string, SseEvent[]>;
}

export interface ServerContext {
  policy: ServerPolicy;
  sessions: Record<string, ServerSession>;
  nextSession: number;
  nextStream: number;
}

export type ServerEvent =
  | { type: 'REQUEST'; req: number; request: HttpRequest }
  /** Forget one session: the one named, or the newest when none is. */
  | { type: 'EXPIRE'; sessionId: string | null }
  | { type: 'RESTART' };

/** Notes that set a session's transport also say how that transport carries progress (`encoding`):
 *  the oracles judge what the server did from the history, not by recomputing it. */
export type ServerNote =
  | { note: 'session-opened'; session: string; caps: CapabilitySet; transport: Transport; encoding: ProgressEncoding }
  | {
      note: 'reinitialized';
      session: string;
      policy: string;
      caps: CapabilitySet;
      transport: Transport;
      encoding: ProgressEncoding;
      newSession?: string;
    }
  | { note: 'reinit-rejected'; session: string }
  | { note: 'transport-changed'; session: string; from: Transport; to: Transport; encoding: ProgressEncoding }
  | { note: 'session-forgotten'; session: string; why: 'expired' | 'restart' }
  | { note: 'call-finished'; session: string; req: number; callId: number; transport: Transport }
  /** 2026-07-28: the connection closed before the answer was written, and the server cancelled the tool. */
  | { note: 'call-cancelled'; session: string; req: number; callId: number };

export type ServerEffect = { type: 'respond'; req: number; response: HttpResponse } | { type: 'note'; note: ServerNote };

type R = Reduction<ServerContext, ServerEffect>;
type RequestEvent = Extract<ServerEvent, { type: 'REQUEST' }>;

const TOOLS = ['work', 'lookup', 'probe'];
/** The session a 2026-07-28 request is served in: none (notes name it so). */
export const STATELESS = '-';
/** Progress a tool reports when asked, in percent. */
const PROGRESS_STEPS = [50, 100];

function sessionOf(ctx: ServerContext, e: RequestEvent): ServerSession | undefined {
  const id = e.request.headers['mcp-session-id'];
  return id === undefined ? undefined : ctx.sessions[id];
}

function withSession(ctx: ServerContext, s: ServerSession): ServerContext {
  return { ...ctx, sessions: { ...ctx.sessions, [s.id]: s } };
}

function initializeResult(s: ServerSession): InitializeResult {
  return { capabilities: s.caps, transport: s.transport };
}

function respond(req: number, response: HttpResponse): ServerEffect {
  return { type: 'respond', req, response };
}

function openSession(ctx: ServerContext, e: RequestEvent): R {
  const body = e.request.body;
  if (body.rpc !== 'initialize') throw new Error('openSession needs an initialize request');
  const transport = selectTransport(e.request, body.transport, null);
  const caps = advertised(openingCaps(ctx.policy.reinit, body.capabilities), transport, ctx.policy.advertise);
  const s: ServerSession = { id: `s${ctx.nextSession}`, caps, firstCaps: caps, transport, streams: {} };
  return {
    context: { ...withSession(ctx, s), nextSession: ctx.nextSession + 1 },
    effects: [
      { type: 'note', note: { note: 'session-opened', session: s.id, caps, transport, encoding: progressEncoding(transport) } },
      respond(e.req, jsonResponse(200, { result: initializeResult(s) }, { 'mcp-session-id': s.id })),
    ],
  };
}

function reinitialize(ctx: ServerContext, e: RequestEvent): R {
  const s = sessionOf(ctx, e)!;
  const body = e.request.body;
  if (body.rpc !== 'initialize') throw new Error('reinitialize needs an initialize request');
  const transport = selectTransport(e.request, body.transport, s.transport);
  const decision = reinitPolicy(ctx.policy.reinit).decide({
    session: s,
    clientCaps: body.capabilities,
    transport,
    advertise: ctx.policy.advertise,
  });
  if (decision.kind === 'reject') {
    return {
      context: ctx,
      effects: [
        { type: 'note', note: { note: 'reinit-rejected', session: s.id } },
        respond(e.req, errorResponse(400, JSONRPC.invalidRequest, 'Invalid Request: Server already initialized')),
      ],
    };
  }
  if (decision.kind === 'new-session') {
    const opened = openSession(ctx, e);
    const fresh = `s${ctx.nextSession}`;
    const next = opened.context.sessions[fresh]!;
    return {
      context: opened.context,
      effects: [
        {
          type: 'note',
          note: {
            note: 'reinitialized',
            session: s.id,
            policy: ctx.policy.reinit,
            caps: next.caps,
            transport: next.transport,
            encoding: progressEncoding(next.transport),
            newSession: fresh,
          },
        },
        ...opened.effects,
      ],
    };
  }
  const updated: ServerSession = { ...s, caps: decision.caps, transport };
  const effects: ServerEffect[] = [];
  if (transport !== s.transport) {
    const encoding = progressEncoding(transport);
    const note: ServerNote = { note: 'transport-changed', session: s.id, from: s.transport, to: transport, encoding };
    effects.push({ type: 'note', note });
  }
  effects.push(
    {
      type: 'note',
      note: {
        note: 'reinitialized',
        session: s.id,
        policy: ctx.policy.reinit,
        caps: updated.caps,
        transport,
        encoding: progressEncoding(transport),
      },
    },
    respond(e.req, jsonResponse(200, { result: initializeResult(updated) }, { 'mcp-session-id': s.id })),
  );
  return { context: withSession(ctx, updated), effects };
}

/** Whether this `tools/call` is answered with an SSE stream (`server.streaming`). */
function streams(ctx: ServerContext, s: ServerSession, request: HttpRequest): boolean {
  if (ctx.policy.streaming === 'accept-header') return (request.headers['accept'] ?? '').includes(SSE_TYPE);
  return has(s.caps, 'tools.streaming');
}

function callTool(ctx: ServerContext, e: RequestEvent): R {
  const s = sessionOf(ctx, e)!;
  const body = e.request.body;
  if (body.rpc !== 'tools/call') throw new Error('callTool needs a tools/call request');
  const token = body.progressToken;
  const encoding = progressEncoding(s.transport);
  const result: CallResult = { content: [{ type: 'text', text: `${body.tool} result for call ${body.callId}` }] };
  if (token !== null && encoding === 'inline') Object.assign(result, { progressToken: token, progress: PROGRESS_STEPS });
  const message: JsonRpcMessage = { result };
  const finished: ServerEffect = {
    type: 'note',
    note: { note: 'call-finished', session: s.id, req: e.req, callId: body.callId, transport: s.transport },
  };
  if (!streams(ctx, s, e.request)) {
    return { context: ctx, effects: [finished, respond(e.req, jsonResponse(200, message))] };
  }
  const stream = `${s.id}-${ctx.nextStream}`;
  const events: SseEvent[] = [];
  if (token !== null && encoding === 'frames') {
    for (const progress of PROGRESS_STEPS)
      events.push({ id: `${stream}:${events.length}`, event: 'progress', data: { progressToken: token, progress } });
  }
  events.push({ id: `${stream}:${events.length}`, event: 'message', data: message });
  const updated = { ...s, streams: { ...s.streams, [stream]: events } };
  return {
    context: { ...withSession(ctx, updated), nextStream: ctx.nextStream + 1 },
    effects: [
      finished,
      respond(e.req, { status: 200, headers: { 'content-type': SSE_TYPE }, body: { kind: 'sse', events, complete: true } }),
    ],
  };
}

/** GET with `Last-Event-ID`: replay what followed that event. Without a usable id the GET opens the
 *  session's standalone stream, which carries nothing for the cut request: the client waits on it. */
function resumeStream(ctx: ServerContext, e: RequestEvent): R {
  const s = sessionOf(ctx, e)!;
  const last = e.request.headers['last-event-id'];
  const sep = last?.lastIndexOf(':') ?? -1;
  const events = last && sep > 0 ? s.streams[last.slice(0, sep)] : undefined;
  const after = events ? events.filter((_, i) => i > Number(last!.slice(sep + 1))) : [];
  return {
    context: ctx,
    effects: [
      respond(e.req, {
        status: 200,
        headers: { 'content-type': SSE_TYPE },
        body: { kind: 'sse', events: after, complete: events !== undefined },
      }),
    ],
  };
}

/** 2026-07-28: one request, one answer, no session. Streaming is decided per request, from the
 *  capabilities the request declares (`negotiated`) or its `Accept` (`accept-header`); the transport
 *  is always Streamable HTTP (HTTP+SSE is not a transport of this revision), so progress is inline. */
function callStateless(ctx: ServerContext, e: RequestEvent): R {
  const body = e.request.body;
  if (body.rpc !== 'tools/call' || !body.meta) throw new Error('callStateless needs a 2026-07-28 tools/call');
  if (e.request.closing) {
    // "Closing the SSE response stream MUST be treated by the server as cancellation": the tool's
    // effect never commits, and nothing is answered (nobody is there to read it).
    const cancelled: ServerEffect = { type: 'note', note: { note: 'call-cancelled', session: STATELESS, req: e.req, callId: body.callId } };
    return { context: ctx, effects: [cancelled, respond(e.req, CONNECTION_RESET)] };
  }
  const token = body.progressToken;
  const result: CallResult = { content: [{ type: 'text', text: `${body.tool} result for call ${body.callId}` }] };
  if (token !== null) Object.assign(result, { progressToken: token, progress: PROGRESS_STEPS });
  const finished: ServerEffect = {
    type: 'note',
    note: { note: 'call-finished', session: STATELESS, req: e.req, callId: body.callId, transport: 'streamable-http' },
  };
  const sse =
    ctx.policy.streaming === 'accept-header'
      ? (e.request.headers['accept'] ?? '').includes(SSE_TYPE)
      : has(body.meta.clientCapabilities, 'tools.streaming');
  if (!sse) return { context: ctx, effects: [finished, respond(e.req, jsonResponse(200, { result }))] };
  const events: SseEvent[] = [{ id: `r${e.req}:0`, event: 'message', data: { result } }];
  return {
    context: ctx,
    effects: [
      finished,
      respond(e.req, { status: 200, headers: { 'content-type': SSE_TYPE }, body: { kind: 'sse', events, complete: true } }),
    ],
  };
}

const modernReducers = {
  callStateless,
  answerDiscover: (ctx: ServerContext, e: RequestEvent): R => {
    const supportedVersions = ctx.policy.protocol === 'dual' ? ['2025-11-25', MODERN] : [MODERN];
    return {
      context: ctx,
      effects: [respond(e.req, jsonResponse(200, { result: { supportedVersions, capabilities: SERVER_CAPABILITIES } }))],
    };
  },
  answerHeaderMismatch: (ctx: ServerContext, e: RequestEvent): R => ({
    context: ctx,
    effects: [
      respond(e.req, errorResponse(400, JSONRPC.headerMismatch, "HeaderMismatch: MCP-Protocol-Version does not match the request's _meta")),
    ],
  }),
  /** A 2026-07-28-only server and a 2025-11-25 request: `initialize` is not a method, GET is not allowed. */
  answerLegacyRequest: (ctx: ServerContext, e: RequestEvent): R => {
    const rpc = e.request.body.rpc;
    if (e.request.method === 'GET') return { context: ctx, effects: [respond(e.req, emptyResponse(405, { allow: 'POST' }))] };
    const response =
      rpc === 'initialize'
        ? errorResponse(400, JSONRPC.methodNotFound, 'Method not found: initialize is not a method of 2026-07-28')
        : errorResponse(400, JSONRPC.invalidRequest, 'Invalid Request: no io.modelcontextprotocol/protocolVersion in _meta');
    return { context: ctx, effects: [respond(e.req, response)] };
  },
};

export const serverReducers = {
  ...modernReducers,
  openSession,
  reinitialize,
  callTool,
  resumeStream,
  acknowledgeInitialized: (ctx: ServerContext, e: RequestEvent): R => ({ context: ctx, effects: [respond(e.req, emptyResponse(202))] }),
  listTools: (ctx: ServerContext, e: RequestEvent): R => ({
    context: ctx,
    effects: [respond(e.req, jsonResponse(200, { result: { tools: TOOLS } }))],
  }),
  answerMissingSession: (ctx: ServerContext, e: RequestEvent): R => ({
    context: ctx,
    effects: [respond(e.req, errorResponse(400, -32000, 'Bad Request: Mcp-Session-Id header is required'))],
  }),
  answerSessionNotFound: (ctx: ServerContext, e: RequestEvent): R => ({
    context: ctx,
    effects: [respond(e.req, errorResponse(404, JSONRPC.sessionNotFound, 'Session not found'))],
  }),
  forgetSession: (ctx: ServerContext, e: ServerEvent): R => {
    const ids = Object.keys(ctx.sessions);
    const id = e.type === 'EXPIRE' && e.sessionId !== null && ctx.sessions[e.sessionId] ? e.sessionId : ids[ids.length - 1];
    if (id === undefined) return { context: ctx, effects: [] };
    const { [id]: _gone, ...sessions } = ctx.sessions;
    return { context: { ...ctx, sessions }, effects: [{ type: 'note', note: { note: 'session-forgotten', session: id, why: 'expired' } }] };
  },
  forgetAll: (ctx: ServerContext): R => ({
    context: { ...ctx, sessions: {} },
    effects: Object.keys(ctx.sessions).map(
      (session) => ({ type: 'note', note: { note: 'session-forgotten', session, why: 'restart' } }) as ServerEffect,
    ),
  }),
};

const rpc = (e: ServerEvent) => (e.type === 'REQUEST' ? e.request.body.rpc : undefined);
const sessionHeader = (e: ServerEvent) => (e.type === 'REQUEST' ? e.request.headers['mcp-session-id'] : undefined);
const known = (ctx: ServerContext, e: ServerEvent) => ctx.sessions[sessionHeader(e) ?? ''] !== undefined;
/** The server speaks 2026-07-28 and the request carries that revision's `_meta`. */
const speaksModern = (ctx: ServerContext, e: ServerEvent) => ctx.policy.protocol !== '2025-11-25' && modernMeta(e) !== undefined;

const modernMeta = (e: ServerEvent) => (e.type === 'REQUEST' && 'meta' in e.request.body ? e.request.body.meta : undefined);

/** What a server that speaks 2026-07-28 does with a request carrying its `_meta` (before any session
 *  logic: such a request has no session), and what a 2026-07-28-only server does with any other. */
const MODERN_BRANCHES = [
  { guard: 'isModernHeaderMismatch', actions: 'answerHeaderMismatch' },
  { guard: 'isModernDiscover', actions: 'answerDiscover' },
  { guard: 'isModernToolCall', actions: 'callStateless' },
  { guard: 'isModernToolList', actions: 'listTools' },
  { guard: 'servesOnlyModern', actions: 'answerLegacyRequest' },
] as const;

const REQUEST_BRANCHES = [
  { guard: 'isNewHandshake', actions: 'openSession', target: 'serving' },
  { guard: 'isHandshakeOnUnknownSession', actions: 'answerSessionNotFound' },
  { guard: 'isReHandshake', actions: 'reinitialize' },
  { guard: 'lacksSessionId', actions: 'answerMissingSession' },
  { guard: 'isUnknownSession', actions: 'answerSessionNotFound' },
  { guard: 'isInitializedNotification', actions: 'acknowledgeInitialized' },
  { guard: 'isToolCall', actions: 'callTool' },
  { guard: 'isToolList', actions: 'listTools' },
  { guard: 'isResume', actions: 'resumeStream' },
] as const;

export const serverMachine = setup({
  types: {
    context: {} as ServerContext,
    events: {} as ServerEvent,
    input: {} as { policy: ServerPolicy },
  },
  actions: { ...(reducerActions(serverReducers as never) as Record<keyof typeof serverReducers, never>), effect: effectAction },
  guards: {
    isNewHandshake: ({ event }) => rpc(event) === 'initialize' && sessionHeader(event) === undefined,
    isHandshakeOnUnknownSession: ({ context, event }) => rpc(event) === 'initialize' && !known(context, event),
    isReHandshake: ({ event }) => rpc(event) === 'initialize',
    lacksSessionId: ({ event }) => sessionHeader(event) === undefined,
    isUnknownSession: ({ context, event }) => !known(context, event),
    isInitializedNotification: ({ event }) => rpc(event) === 'notifications/initialized',
    isToolCall: ({ event }) => rpc(event) === 'tools/call',
    isToolList: ({ event }) => rpc(event) === 'tools/list',
    isResume: ({ event }) => rpc(event) === 'resume',
    isLastSession: ({ context }) => Object.keys(context.sessions).length <= 1,
    isModernHeaderMismatch: ({ context, event }) =>
      speaksModern(context, event) &&
      event.type === 'REQUEST' &&
      event.request.headers['mcp-protocol-version'] !== modernMeta(event)!.protocolVersion,
    isModernDiscover: ({ context, event }) => speaksModern(context, event) && rpc(event) === 'server/discover',
    isModernToolCall: ({ context, event }) => speaksModern(context, event) && rpc(event) === 'tools/call',
    isModernToolList: ({ context, event }) => speaksModern(context, event) && rpc(event) === 'tools/list',
    servesOnlyModern: ({ context }) => context.policy.protocol === MODERN,
  },
}).createMachine({
  id: 'server',
  context: ({ input }) => ({ policy: input.policy, sessions: {}, nextSession: 1, nextStream: 1 }),
  initial: 'empty',
  states: {
    /** No live session: every request but a new handshake is answered 400/404. */
    empty: {
      on: {
        // With no session, only a new handshake can succeed; the other branches could never fire here.
        REQUEST: [
          ...MODERN_BRANCHES,
          { guard: 'isNewHandshake', actions: 'openSession', target: 'serving' },
          { guard: 'lacksSessionId', actions: 'answerMissingSession' },
          { actions: 'answerSessionNotFound' },
        ],
        RESTART: {},
        EXPIRE: {},
      },
    },
    serving: {
      on: {
        REQUEST: [...MODERN_BRANCHES, ...REQUEST_BRANCHES],
        RESTART: { target: 'empty', actions: 'forgetAll' },
        EXPIRE: [{ guard: 'isLastSession', target: 'empty', actions: 'forgetSession' }, { actions: 'forgetSession' }],
      },
    },
  },
});

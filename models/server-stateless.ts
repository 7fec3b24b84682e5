// The 2026-07-28 server: one request, one answer, no session. A request carrying that revision's
// `_meta` is answered before any session logic; a 2026-07-28-only server refuses any other.
import { has, SERVER_CAPABILITIES } from './capabilities.ts';
import { choose } from './knob-choice.ts';
import { SERVER_KNOBS } from './knobs.ts';
import {
  CONNECTION_RESET,
  emptyResponse,
  errorResponse,
  jsonResponse,
  JSONRPC,
  SSE_TYPE,
  type CallResult,
  type TextContent,
  type SseEvent,
} from './messages.ts';
import { MODERN } from './policies.ts';
import {
  PROGRESS_STEPS,
  respond,
  rpcOf,
  STATELESS,
  type R,
  type RequestEvent,
  type ServerContext,
  type ServerEffect,
  type ServerEvent,
} from './server-context.ts';

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
  const content: TextContent[] = [{ type: 'text', text: `${body.tool} result for call ${body.callId}` }];
  const result: CallResult = token !== null ? { content, progressToken: token, progress: PROGRESS_STEPS } : { content };
  const finished: ServerEffect = {
    type: 'note',
    note: { note: 'call-finished', session: STATELESS, req: e.req, callId: body.callId, transport: 'streamable-http' },
  };
  // Read only where the two rules disagree on this request (models/knob-choice.ts): most requests
  // declare streaming in their capabilities and their Accept alike.
  const byHeader = (e.request.headers['accept'] ?? '').includes(SSE_TYPE);
  const byCaps = has(body.meta.clientCapabilities, 'tools.streaming');
  const sse = choose(ctx.policy, 'streaming', SERVER_KNOBS.streaming.values, (rule) => (rule === 'accept-header' ? byHeader : byCaps));
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

export const modernReducers = {
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

const modernMeta = (e: ServerEvent) => (e.type === 'REQUEST' && 'meta' in e.request.body ? e.request.body.meta : undefined);
/** The server speaks 2026-07-28 and the request carries that revision's `_meta`. */
const speaksModern = (ctx: ServerContext, e: ServerEvent) => ctx.policy.protocol !== '2025-11-25' && modernMeta(e) !== undefined;

type GuardArgs = { context: ServerContext; event: ServerEvent };

export const modernGuards = {
  isModernHeaderMismatch: ({ context, event }: GuardArgs) =>
    speaksModern(context, event) &&
    event.type === 'REQUEST' &&
    event.request.headers['mcp-protocol-version'] !== modernMeta(event)!.protocolVersion,
  isModernDiscover: ({ context, event }: GuardArgs) => speaksModern(context, event) && rpcOf(event) === 'server/discover',
  isModernToolCall: ({ context, event }: GuardArgs) => speaksModern(context, event) && rpcOf(event) === 'tools/call',
  isModernToolList: ({ context, event }: GuardArgs) => speaksModern(context, event) && rpcOf(event) === 'tools/list',
  servesOnlyModern: ({ context }: GuardArgs) => context.policy.protocol === MODERN,
};

/** What a server that speaks 2026-07-28 does with a request carrying its `_meta` (before any session
 *  logic: such a request has no session), and what a 2026-07-28-only server does with any other. */
export const MODERN_BRANCHES = [
  { guard: 'isModernHeaderMismatch', actions: 'answerHeaderMismatch' },
  { guard: 'isModernDiscover', actions: 'answerDiscover' },
  { guard: 'isModernToolCall', actions: 'callStateless' },
  { guard: 'isModernToolList', actions: 'listTools' },
  { guard: 'servesOnlyModern', actions: 'answerLegacyRequest' },
] as const;

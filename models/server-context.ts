// The server's state as data: its session table (keyed by `Mcp-Session-Id`), the events it takes,
// the notes it writes to the history and the effects it asks the world to perform. Shared by the
// session reducers (server-sessions.ts), the 2026-07-28 ones (server-stateless.ts) and the machine.
import type { CapabilitySet, ProgressEncoding, Transport } from './capabilities.ts';
import type { HttpRequest, HttpResponse, InitializeResult, SseEvent } from './messages.ts';
import type { ServerPolicy } from './policies.ts';
import type { Reduction } from './reduction.ts';

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
  /** The calls it has run, by request key (the agent's call id), kept across sessions and restarts;
   *  absent until the first. Only `server.idempotency=request-key` answers from it. */
  finished?: Readonly<Record<number, true>>;
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

export type R = Reduction<ServerContext, ServerEffect>;
export type RequestEvent = Extract<ServerEvent, { type: 'REQUEST' }>;

export const TOOLS = ['work', 'lookup', 'probe'];
/** The session a 2026-07-28 request is served in: none (notes name it so). */
export const STATELESS = '-';
/** Progress a tool reports when asked, in percent. */
export const PROGRESS_STEPS = [50, 100];

export function sessionOf(ctx: ServerContext, e: RequestEvent): ServerSession | undefined {
  const id = e.request.headers['mcp-session-id'];
  return id === undefined ? undefined : ctx.sessions[id];
}

/** A copy of the server's context with some fields changed, written out as one literal so that every
 *  context has one shape (why: models/client-context.ts `withContext`). Same key order. */
export function withServerContext(ctx: ServerContext, change: Partial<ServerContext>): ServerContext {
  return {
    policy: change.policy ?? ctx.policy,
    sessions: change.sessions ?? ctx.sessions,
    nextSession: change.nextSession ?? ctx.nextSession,
    nextStream: change.nextStream ?? ctx.nextStream,
    finished: change.finished ?? ctx.finished,
  };
}

/** A copy of a string-keyed record with `value` at `key` (or, with `value` undefined, without it), by a
 *  plain loop: a spread with a computed key is the slow path in V8. Key order as a spread leaves it. */
export function recordWith<T>(record: Readonly<Record<string, T>>, key: string, value: T | undefined): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k in record) if (k !== key) out[k] = record[k]!;
  if (value !== undefined) out[key] = value;
  return out;
}

export function withSession(ctx: ServerContext, s: ServerSession): ServerContext {
  return withServerContext(ctx, { sessions: recordWith(ctx.sessions, s.id, s) });
}

export function initializeResult(s: ServerSession): InitializeResult {
  return { capabilities: s.caps, transport: s.transport };
}

export function respond(req: number, response: HttpResponse): ServerEffect {
  return { type: 'respond', req, response };
}

export const rpcOf = (e: ServerEvent) => (e.type === 'REQUEST' ? e.request.body.rpc : undefined);

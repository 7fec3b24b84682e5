// How the client sends a call, reads its answer and fails an attempt. The reading rules are the
// records' mechanisms: an SSE parser that reads a JSON body sees zero events and surfaces an empty
// result (seed 000); a parser waiting for inline progress that comes as frames waits until its
// deadline (seed 003).
import { MODERN } from './policies.ts';
import {
  type ClientContext,
  type ClientEffect,
  type ClientEvent,
  type CallAttempt,
  type Inflight,
  type R,
  expectedProgress,
  negotiatedStreaming,
  note,
  request,
} from './client-context.ts';
import { probes, responseRefusal } from './client-guards.ts';
import { unadmitted } from './guards.ts';
import {
  contentType,
  finalMessage,
  isResult,
  SSE_TYPE,
  type CallResult,
  type HttpResponse,
  type ListResult,
  type TextContent,
} from './messages.ts';

const FAILED: ClientEffect = { type: 'raise', event: { type: 'ATTEMPT_FAILED' } };

function end(
  call: CallAttempt,
  req: number,
  e: { end: 'result'; content: TextContent[] } | { end: 'error'; reason: string } | { end: 'deadline' },
): ClientEffect {
  return { type: 'call-ended', callId: call.callId, attempts: call.attempt, req, ...e };
}

/** Whether `client.reissue` lets this call be sent once more after its first attempt failed. */
export function reissues(ctx: ClientContext, call: CallAttempt): boolean {
  const policy = ctx.policy.reissue;
  return call.attempt === 1 && !ctx.session?.dead && (policy === 'always' || (policy === 'idempotent-only' && call.idempotent));
}

/** An attempt failed: a first attempt waits for a reconnect (2026-07-28: for nothing) and is sent
 *  once more where `client.reissue` allows it; otherwise the call ends in error. */
export function failAttempt(ctx: ClientContext, call: CallAttempt, req: number, reason: string): R {
  const effects: ClientEffect[] = [note({ note: 'attempt-failed', callId: call.callId, attempt: call.attempt, reason })];
  if (reissues(ctx, call)) {
    return { context: { ...ctx, waiting: [...ctx.waiting, { ...call, attempt: 2 }] }, effects: [...effects, FAILED] };
  }
  const kept = call.attempt === 1 && !ctx.session?.dead ? ` (not re-issued: client.reissue=${ctx.policy.reissue})` : '';
  const why = ctx.session?.dead ? `${reason} (session dead: ${ctx.session.dead})` : `${reason}${kept}`;
  return { context: ctx, effects: [...effects, end(call, req, { end: 'error', reason: why })] };
}

export function failAll(ctx: ClientContext, calls: CallAttempt[], req: number, reason: string): R {
  let context = ctx;
  const effects: ClientEffect[] = [];
  for (const call of calls) {
    const r = failAttempt(context, call, req, reason);
    context = r.context;
    effects.push(...r.effects.filter((e) => e !== FAILED));
  }
  if (context.waiting.length > ctx.waiting.length) effects.push(FAILED);
  return { context, effects };
}

/** Send one call attempt on the current session, probing first where the `probe` guard asks. */
export function sendCall(ctx: ClientContext, call: CallAttempt): R {
  const s = ctx.session!;
  const encoding = expectedProgress(ctx, call);
  const relies = encoding ? ['streaming-progress'] : [];
  if (relies.length > 0 && probes(ctx.policy.guards)) {
    const [cap] = unadmitted(relies, s.transport, s.proposed, s.probed);
    if (cap !== undefined) return probeFirst(ctx, call, cap);
  }
  const sent = request(ctx, {
    rpc: call.method,
    ...(call.method === 'tools/call'
      ? {
          callId: call.callId,
          tool: call.idempotent ? ('lookup' as const) : ('work' as const),
          progressToken: call.progress ? `p${call.callId}` : null,
        }
      : {}),
  } as never);
  const inflight: Inflight = { kind: 'call', call, attemptId: sent.req, resumed: false };
  const effects = [...sent.effects];
  if (encoding)
    effects.push(
      note({ note: 'admit', callId: call.callId, req: sent.req, session: s.id, caps: [{ cap: 'streaming-progress', encoding }] }),
    );
  return { context: { ...sent.ctx, inflight: { ...sent.ctx.inflight, [sent.req]: inflight } }, effects };
}

function probeFirst(ctx: ClientContext, call: CallAttempt, cap: string): R {
  const pending = Object.entries(ctx.inflight).find(([, f]) => f.kind === 'probe' && f.cap === cap);
  if (pending) {
    const [req, probe] = pending as [string, Extract<Inflight, { kind: 'probe' }>];
    return { context: { ...ctx, inflight: { ...ctx.inflight, [req]: { ...probe, waiting: [...probe.waiting, call] } } }, effects: [] };
  }
  const sent = request(ctx, { rpc: 'tools/call', callId: -1 - call.callId, tool: 'probe', progressToken: `probe-${call.callId}` });
  const probe: Inflight = { kind: 'probe', cap, attemptId: sent.req, waiting: [call] };
  return {
    context: { ...sent.ctx, inflight: { ...sent.ctx.inflight, [sent.req]: probe } },
    effects: [...sent.effects, note({ note: 'probe', cap, req: sent.req, verdict: 'sent' })],
  };
}

export function sendAll(ctx: ClientContext, calls: CallAttempt[]): R {
  let context = ctx;
  const effects: ClientEffect[] = [];
  for (const call of calls) {
    const r = sendCall(context, call);
    context = r.context;
    effects.push(...r.effects);
  }
  return { context, effects };
}

function withoutInflight(ctx: ClientContext, req: number): ClientContext {
  const { [req]: _done, ...inflight } = ctx.inflight;
  return { ...ctx, inflight };
}

function httpFailure(ctx: ClientContext, res: HttpResponse): { ctx: ClientContext; reason: string } {
  const m = finalMessage(res);
  const detail = m && 'error' in m ? ` (${m.error.code} ${m.error.message})` : '';
  if (res.status === 404 && ctx.session) return { ctx: { ...ctx, session: { ...ctx.session, gone: true } }, reason: `HTTP 404${detail}` };
  if (res.status === 0) return { ctx, reason: 'connection reset' };
  return { ctx, reason: `HTTP ${res.status}${detail}` };
}

function contentOf(call: CallAttempt, result: CallResult | ListResult): TextContent[] {
  return call.method === 'tools/list' ? [{ type: 'text', text: (result as ListResult).tools.join(',') }] : (result as CallResult).content;
}

function readCall(ctx: ClientContext, req: number, f: Extract<Inflight, { kind: 'call' }>, res: HttpResponse): R {
  const { call } = f;
  if (res.status !== 200) {
    const failure = httpFailure(ctx, res);
    return failAttempt(withoutInflight(failure.ctx, req), call, f.attemptId, failure.reason);
  }
  const type = contentType(res) ?? '';
  const isSse = res.body.kind === 'sse';
  let expectSse = isSse;
  if (call.method === 'tools/call' && !f.resumed) {
    const pinned = ctx.policy.parser === 'pinned';
    if (pinned) expectSse = ctx.session!.pinned.streaming;
    const effects: ClientEffect[] = [
      note({ note: 'read', callId: call.callId, req, contentType: type, expected: pinned ? (expectSse ? 'sse' : 'json') : 'any' }),
    ];
    const s = ctx.session!;
    const refusal = responseRefusal(ctx.policy.guards, () => ({
      callId: call.callId,
      contentType: type,
      negotiatedStreaming: negotiatedStreaming(ctx),
      session: { id: s.id, caps: s.caps, firstCaps: s.firstCaps, transport: s.transport, proposed: s.proposed },
    }));
    if (refusal !== null) {
      const r = failAttempt(withoutInflight(ctx, req), call, f.attemptId, refusal);
      return { context: r.context, effects: [...effects, ...r.effects] };
    }
    const r = readBody(ctx, req, f, res, expectSse);
    return { context: r.context, effects: [...effects, ...r.effects] };
  }
  return readBody(ctx, req, f, res, expectSse);
}

function readBody(ctx: ClientContext, req: number, f: Extract<Inflight, { kind: 'call' }>, res: HttpResponse, expectSse: boolean): R {
  const { call } = f;
  const body = res.body;
  if (expectSse && body.kind === 'json') {
    // Seed 000: an SSE parser reads a JSON body as a zero-event stream and surfaces an empty result.
    return { context: withoutInflight(ctx, req), effects: [end(call, f.attemptId, { end: 'result', content: [] })] };
  }
  if (!expectSse && body.kind === 'sse') {
    return failAttempt(withoutInflight(ctx, req), call, f.attemptId, 'parse error: an SSE body read as JSON');
  }
  const message = finalMessage(res);
  if (message === undefined && body.kind === 'sse') return streamWithoutAnswer(ctx, req, f, res);
  if (!isResult(message)) {
    const reason =
      message && 'error' in message ? `JSON-RPC error ${message.error.code}: ${message.error.message}` : 'no JSON-RPC message in the body';
    return failAttempt(withoutInflight(ctx, req), call, f.attemptId, reason);
  }
  const result = message.result as CallResult | ListResult;
  if (expectedProgress(ctx, call) === 'inline' && !('progressToken' in result)) {
    // Seed 003: the handler blocks for an inline progress token that will never arrive.
    return { context: ctx, effects: [note({ note: 'awaiting-progress', callId: call.callId, req })] };
  }
  let context = withoutInflight(ctx, req);
  const s = context.session;
  if (
    s &&
    probes(ctx.policy.guards) &&
    expectedProgress(ctx, call) &&
    s.transport !== s.proposed &&
    !s.probed.includes('streaming-progress')
  ) {
    // A transport-dependent call that round-tripped is itself the proof the probe guard asks for.
    context = { ...context, session: { ...s, probed: [...s.probed, 'streaming-progress'] } };
  }
  return { context, effects: [end(call, f.attemptId, { end: 'result', content: contentOf(call, result) })] };
}

/** The SSE stream ended (or stayed open) without the call's answer. */
function streamWithoutAnswer(ctx: ClientContext, req: number, f: Extract<Inflight, { kind: 'call' }>, res: HttpResponse): R {
  const { call } = f;
  if (ctx.policy.parser === 'pinned') {
    // The pinned SSE parser treats the end of the stream as the end of a zero-result answer.
    return { context: withoutInflight(ctx, req), effects: [end(call, f.attemptId, { end: 'result', content: [] })] };
  }
  if (ctx.revision === MODERN) {
    // 2026-07-28: no resumption; "a broken response stream loses the in-flight request".
    return failAttempt(withoutInflight(ctx, req), call, f.attemptId, 'response stream ended before its result');
  }
  const events = res.body.kind === 'sse' ? res.body.events : [];
  const lastEventId = events[events.length - 1]?.id;
  if (f.resumed || lastEventId === undefined || res.headers['content-type'] !== SSE_TYPE) {
    // Nothing to resume from (or already resumed): like the SDK, the request waits for its deadline.
    return { context: ctx, effects: [] };
  }
  const sent = request(withoutInflight(ctx, req), { rpc: 'resume' }, { lastEventId, deadlineFor: f.attemptId });
  return {
    context: { ...sent.ctx, inflight: { ...sent.ctx.inflight, [sent.req]: { ...f, resumed: true } } },
    effects: [...sent.effects, note({ note: 'resume', callId: call.callId, req: sent.req, lastEventId })],
  };
}

function readProbe(ctx: ClientContext, req: number, f: Extract<Inflight, { kind: 'probe' }>, res: HttpResponse): R {
  const base = withoutInflight(ctx, req);
  const message = finalMessage(res);
  if (res.status !== 200 || !isResult(message)) {
    const failure = res.status !== 200 ? httpFailure(base, res) : { ctx: base, reason: 'probe got no answer' };
    const r = failAll(failure.ctx, f.waiting, f.attemptId, `probe failed: ${failure.reason}`);
    return {
      context: r.context,
      effects: [note({ note: 'probe', cap: f.cap, req, verdict: 'failed', detail: failure.reason }), ...r.effects],
    };
  }
  const inline = 'progressToken' in message.result;
  const expected = expectedProgress(base, { ...f.waiting[0]!, attempt: 1 });
  if ((expected === 'inline') !== inline) {
    const s = base.session!;
    const reason = `TransportCapabilityMismatch: capability '${f.cap}' negotiated under '${s.proposed}' but session fell back to '${s.transport}'; the probe saw progress ${inline ? 'inline' : 'as frames'}`;
    const r = failAll(base, f.waiting, f.attemptId, reason);
    return { context: r.context, effects: [note({ note: 'probe', cap: f.cap, req, verdict: 'mismatch', detail: reason }), ...r.effects] };
  }
  const s = base.session!;
  const verified = { ...base, session: { ...s, probed: [...s.probed, f.cap] } };
  const r = sendAll(verified, f.waiting);
  return { context: r.context, effects: [note({ note: 'probe', cap: f.cap, req, verdict: 'verified' }), ...r.effects] };
}

export function handleResponse(ctx: ClientContext, e: { type: 'RESPONSE'; req: number; response: HttpResponse }): R {
  const f = ctx.inflight[e.req];
  if (!f) return { context: ctx, effects: [note({ note: 'late-response', req: e.req })] };
  return f.kind === 'call' ? readCall(ctx, e.req, f, e.response) : readProbe(ctx, e.req, f, e.response);
}

export function handleDeadline(ctx: ClientContext, e: { type: 'DEADLINE'; req: number }): R {
  const entry = Object.entries(ctx.inflight).find(([, f]) => f.attemptId === e.req);
  if (!entry) return { context: ctx, effects: [] };
  const [req, f] = entry;
  const base = withoutInflight(ctx, Number(req));
  if (f.kind === 'probe') {
    const r = failAll(base, f.waiting, f.attemptId, 'probe timed out');
    return {
      context: r.context,
      effects: [note({ note: 'probe', cap: f.cap, req: Number(req), verdict: 'failed', detail: 'deadline' }), ...r.effects],
    };
  }
  if (reissues(base, f.call)) return failAttempt(base, f.call, f.attemptId, 'deadline');
  return {
    context: base,
    effects: [
      note({ note: 'attempt-failed', callId: f.call.callId, attempt: f.call.attempt, reason: 'deadline' }),
      end(f.call, f.attemptId, { end: 'deadline' }),
    ],
  };
}

/** Opening a new session abandons the old one: its calls in flight fail (the SDK rejects a closed
 *  transport's pending requests) and wait, as retries, for the new session. */
export function abandonInflight(ctx: ClientContext, reason: string): R {
  let context: ClientContext = { ...ctx, inflight: {} };
  const effects: ClientEffect[] = [];
  for (const f of Object.values(ctx.inflight)) {
    const r = f.kind === 'call' ? failAttempt(context, f.call, f.attemptId, reason) : failAll(context, f.waiting, f.attemptId, reason);
    context = r.context;
    effects.push(...r.effects.filter((e) => e.type !== 'raise'));
  }
  return { context, effects };
}

type CallEvent = Extract<ClientEvent, { type: 'CALL' }>;

function firstAttempt(e: CallEvent): CallAttempt {
  return { callId: e.callId, method: e.method, progress: e.progress, idempotent: e.idempotent ?? false, attempt: 1 };
}

export function queueCall(ctx: ClientContext, e: CallEvent): R {
  return { context: { ...ctx, waiting: [...ctx.waiting, firstAttempt(e)] }, effects: [] };
}

export function callNow(ctx: ClientContext, e: CallEvent): R {
  return sendCall(ctx, firstAttempt(e));
}

export function failCallOnDeadSession(ctx: ClientContext, e: CallEvent): R {
  const reason = `session dead: ${ctx.session?.dead ?? 'unknown'}`;
  return { context: ctx, effects: [end(firstAttempt(e), -1, { end: 'error', reason })] };
}

/** 2026-07-28: a failed attempt needs no reconnect; the calls waiting to be re-issued go at once,
 *  each as a new request with a new id. */
export function reissueWaiting(ctx: ClientContext): R {
  return sendAll({ ...ctx, waiting: [] }, ctx.waiting);
}

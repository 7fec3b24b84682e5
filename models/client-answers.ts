// How the client reads what comes back for a call or a probe, and what a deadline does to it. The
// reading rules are the records' mechanisms: an SSE parser that reads a JSON body sees zero events
// and surfaces an empty result (record 000); a parser waiting for inline progress that comes as frames
// waits until its deadline (record 003).
import { MODERN, moduleKnobValues } from './policies.ts';
import {
  type ClientContext,
  type ClientEffect,
  type CallAttempt,
  type Inflight,
  type R,
  expectedProgress,
  negotiatedStreaming,
  note,
  request,
  withContext,
  withInflight,
} from './client-context.ts';
import { inflightAt, inflightWith } from './client-inflight.ts';
import { probes, responseRefusal } from './client-guards.ts';
import { end, failAll, failAttempt, reissues, sendAll } from './client-calls.ts';
import type { PolicyAdditions } from './additions.ts';
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

function withoutInflight(ctx: ClientContext, req: number): ClientContext {
  return withInflight(ctx, inflightWith(ctx.inflight, req, null));
}

function httpFailure(ctx: ClientContext, res: HttpResponse): { ctx: ClientContext; reason: string } {
  const m = finalMessage(res);
  const detail = m && 'error' in m ? ` (${m.error.code} ${m.error.message})` : '';
  if (res.status === 404 && ctx.session)
    return { ctx: withContext(ctx, { session: { ...ctx.session, gone: true } }), reason: `HTTP 404${detail}` };
  if (res.status === 0) return { ctx, reason: 'connection reset' };
  return { ctx, reason: `HTTP ${res.status}${detail}` };
}

function contentOf(call: CallAttempt, result: CallResult | ListResult): TextContent[] {
  return call.method === 'tools/list' ? [{ type: 'text', text: (result as ListResult).tools.join(',') }] : (result as CallResult).content;
}

function readCall(
  ctx: ClientContext,
  req: number,
  f: Extract<Inflight, { kind: 'call' }>,
  res: HttpResponse,
  additions: PolicyAdditions,
): R {
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
    // Counted only where some set of guards refuses this response (most responses pass every guard).
    const view = () => ({
      callId: call.callId,
      contentType: type,
      negotiatedStreaming: negotiatedStreaming(ctx),
      session: { id: s.id, caps: s.caps, firstCaps: s.firstCaps, transport: s.transport, proposed: s.proposed },
      knobs: moduleKnobValues('client', ctx.policy),
    });
    const refusal = responseRefusal(() => ctx.policy.guards, view, additions);
    if (refusal !== null) {
      const r = failAttempt(withoutInflight(ctx, req), call, f.attemptId, refusal);
      effects.push(...r.effects);
      return { context: r.context, effects };
    }
    const r = readBody(ctx, req, f, res, expectSse, additions);
    effects.push(...r.effects);
    return { context: r.context, effects };
  }
  return readBody(ctx, req, f, res, expectSse, additions);
}

function readBody(
  ctx: ClientContext,
  req: number,
  f: Extract<Inflight, { kind: 'call' }>,
  res: HttpResponse,
  expectSse: boolean,
  additions: PolicyAdditions,
): R {
  const { call } = f;
  const body = res.body;
  if (expectSse && body.kind === 'json') {
    // Record 000: an SSE parser reads a JSON body as a zero-event stream and surfaces an empty result.
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
    // Record 003: the handler blocks for an inline progress token that will never arrive.
    return { context: ctx, effects: [note({ note: 'awaiting-progress', callId: call.callId, req })] };
  }
  let context = withoutInflight(ctx, req);
  const s = context.session;
  // The guards are read last: only where the probe guard would decide (as `choose` over every set finds).
  if (
    s &&
    s.transport !== s.proposed &&
    !s.probed.includes('streaming-progress') &&
    expectedProgress(ctx, call) &&
    probes(ctx.policy.guards, additions)
  ) {
    // A transport-dependent call that round-tripped is itself the proof the probe guard asks for.
    context = withContext(context, { session: { ...s, probed: [...s.probed, 'streaming-progress'] } });
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
  // The last id received (an event may carry none): what Last-Event-ID sends back.
  const lastEventId = events.findLast((e) => e.id !== '')?.id;
  if (f.resumed || lastEventId === undefined || res.headers['content-type'] !== SSE_TYPE) {
    // Nothing to resume from (or already resumed): like the SDK, the request waits for its deadline.
    return { context: ctx, effects: [] };
  }
  const sent = request(withoutInflight(ctx, req), { rpc: 'resume' }, { lastEventId, deadlineFor: f.attemptId });
  return {
    context: withInflight(sent.ctx, inflightWith(sent.ctx.inflight, sent.req, { ...f, req: sent.req, resumed: true })),
    effects: [...sent.effects, note({ note: 'resume', callId: call.callId, req: sent.req, lastEventId })],
  };
}

function readProbe(
  ctx: ClientContext,
  req: number,
  f: Extract<Inflight, { kind: 'probe' }>,
  res: HttpResponse,
  additions: PolicyAdditions,
): R {
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
  const verified = withContext(base, { session: { ...s, probed: [...s.probed, f.cap] } });
  const r = sendAll(verified, f.waiting, additions);
  return { context: r.context, effects: [note({ note: 'probe', cap: f.cap, req, verdict: 'verified' }), ...r.effects] };
}

export function handleResponse(
  ctx: ClientContext,
  e: { type: 'RESPONSE'; req: number; response: HttpResponse },
  additions: PolicyAdditions,
): R {
  const f = inflightAt(ctx.inflight, e.req);
  if (!f) return { context: ctx, effects: [note({ note: 'late-response', req: e.req })] };
  return f.kind === 'call' ? readCall(ctx, e.req, f, e.response, additions) : readProbe(ctx, e.req, f, e.response, additions);
}

export function handleDeadline(ctx: ClientContext, e: { type: 'DEADLINE'; req: number }): R {
  const f = ctx.inflight.find((x) => x.attemptId === e.req);
  if (!f) return { context: ctx, effects: [] };
  const req = f.req;
  const base = withoutInflight(ctx, req);
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

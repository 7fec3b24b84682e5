// How the client sends a call (probing first where its guards ask) and fails an attempt (sent once
// more where `client.reissue` allows it); client-answers.ts reads what comes back.
import {
  type ClientContext,
  type ClientEffect,
  type ClientEvent,
  type CallAttempt,
  type Inflight,
  type R,
  expectedProgress,
  note,
  request,
  withContext,
  withInflight,
} from './client-context.ts';
import { inflightWith } from './client-inflight.ts';
import { choose } from './knob-choice.ts';
import { CLIENT_KNOBS } from './knobs.ts';
import { probes } from './client-guards.ts';
import { unadmitted } from './guards.ts';
import type { PolicyAdditions } from './additions.ts';
import type { TextContent } from './messages.ts';

const FAILED: ClientEffect = { type: 'raise', event: { type: 'ATTEMPT_FAILED' } };

export function end(
  call: CallAttempt,
  req: number,
  e: { end: 'result'; content: TextContent[] } | { end: 'error'; reason: string } | { end: 'deadline' },
): ClientEffect {
  // One literal per ending rather than a spread of `e` (V8's slow path on a step of every call).
  const { callId, attempt: attempts } = call;
  if (e.end === 'result') return { type: 'call-ended', callId, attempts, req, end: 'result', content: e.content };
  if (e.end === 'error') return { type: 'call-ended', callId, attempts, req, end: 'error', reason: e.reason };
  return { type: 'call-ended', callId, attempts, req, end: 'deadline' };
}

/** Whether `client.reissue` lets this call be sent once more after its first attempt failed. */
export function reissues(ctx: ClientContext, call: CallAttempt): boolean {
  const firstOnLiveSession = call.attempt === 1 && !ctx.session?.dead;
  return choose(
    ctx.policy,
    'reissue',
    CLIENT_KNOBS.reissue.values,
    (policy) => firstOnLiveSession && (policy === 'always' || (policy === 'idempotent-only' && call.idempotent)),
  );
}

/** An attempt failed: a first attempt waits for a reconnect (2026-07-28: for nothing) and is sent
 *  once more where `client.reissue` allows it; otherwise the call ends in error. */
export function failAttempt(ctx: ClientContext, call: CallAttempt, req: number, reason: string): R {
  const effects: ClientEffect[] = [note({ note: 'attempt-failed', callId: call.callId, attempt: call.attempt, reason })];
  if (reissues(ctx, call)) {
    return { context: withContext(ctx, { waiting: [...ctx.waiting, { ...call, attempt: 2 }] }), effects: [...effects, FAILED] };
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
export function sendCall(ctx: ClientContext, call: CallAttempt, additions: PolicyAdditions): R {
  const s = ctx.session!;
  const encoding = expectedProgress(ctx, call);
  if (encoding) {
    // The probe guard decides only where the capability is not admitted yet: the guards are read there alone.
    const [cap] = unadmitted(['streaming-progress'], s.transport, s.proposed, s.probed);
    if (cap !== undefined && probes(ctx.policy.guards, additions)) return probeFirst(ctx, call, cap);
  }
  const sent = request(
    ctx,
    (call.method === 'tools/call'
      ? {
          rpc: call.method,
          callId: call.callId,
          tool: call.idempotent ? ('lookup' as const) : ('work' as const),
          progressToken: call.progress ? `p${call.callId}` : null,
        }
      : { rpc: call.method }) as never,
  );
  const inflight: Inflight = { kind: 'call', req: sent.req, call, attemptId: sent.req, resumed: false };
  // `request` made this list for this send; with the admit note, one list of the right size.
  const effects = encoding
    ? [
        ...sent.effects,
        note({ note: 'admit', callId: call.callId, req: sent.req, session: s.id, caps: [{ cap: 'streaming-progress', encoding }] }),
      ]
    : sent.effects;
  return { context: withInflight(sent.ctx, inflightWith(sent.ctx.inflight, sent.req, inflight)), effects };
}

function probeFirst(ctx: ClientContext, call: CallAttempt, cap: string): R {
  const probe = ctx.inflight.find((f) => f.kind === 'probe' && f.cap === cap) as Extract<Inflight, { kind: 'probe' }> | undefined;
  if (probe) {
    return {
      context: withInflight(ctx, inflightWith(ctx.inflight, probe.req, { ...probe, waiting: [...probe.waiting, call] })),
      effects: [],
    };
  }
  const sent = request(ctx, { rpc: 'tools/call', callId: -1 - call.callId, tool: 'probe', progressToken: `probe-${call.callId}` });
  const opened: Inflight = { kind: 'probe', req: sent.req, cap, attemptId: sent.req, waiting: [call] };
  return {
    context: withInflight(sent.ctx, inflightWith(sent.ctx.inflight, sent.req, opened)),
    effects: [...sent.effects, note({ note: 'probe', cap, req: sent.req, verdict: 'sent' })],
  };
}

export function sendAll(ctx: ClientContext, calls: CallAttempt[], additions: PolicyAdditions): R {
  let context = ctx;
  const effects: ClientEffect[] = [];
  for (const call of calls) {
    const r = sendCall(context, call, additions);
    context = r.context;
    effects.push(...r.effects);
  }
  return { context, effects };
}

/** Opening a new session abandons the old one: its calls in flight fail (the SDK rejects a closed
 *  transport's pending requests) and wait, as retries, for the new session. */
export function abandonInflight(ctx: ClientContext, reason: string): R {
  let context: ClientContext = withInflight(ctx, []);
  const effects: ClientEffect[] = [];
  for (const f of ctx.inflight) {
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
  return { context: withContext(ctx, { waiting: [...ctx.waiting, firstAttempt(e)] }), effects: [] };
}

export function callNow(ctx: ClientContext, e: CallEvent, additions: PolicyAdditions): R {
  return sendCall(ctx, firstAttempt(e), additions);
}

export function failCallOnDeadSession(ctx: ClientContext, e: CallEvent): R {
  const reason = `session dead: ${ctx.session?.dead ?? 'unknown'}`;
  return { context: ctx, effects: [end(firstAttempt(e), -1, { end: 'error', reason })] };
}

/** 2026-07-28: a failed attempt needs no reconnect; the calls waiting to be re-issued go at once,
 *  each as a new request with a new id. */
export function reissueWaiting(ctx: ClientContext, _e: unknown, additions: PolicyAdditions): R {
  return sendAll(withContext(ctx, { waiting: [] }), ctx.waiting, additions);
}

// One rule per fault family: what it does before request n is carried (reaching into the client or
// the server through hooks the tier provides), on the request, and on its response. Rules are
// written against the model's plain HTTP exchange (messages.ts), which both tiers hand them: the
// model world has it already, the wire tier builds it from real Request/Response objects
// (wire/net/exchange-view.ts). A fault a policy module registers becomes a rule of the same shape, so
// built-in and registered faults go through one path (network.ts) on both tiers.
import { delayMs, strippedHeader, type BuiltinFaultKind, type FaultName } from './faults.ts';
import { CONNECTION_RESET, emptyResponse, type HttpRequest, type HttpResponse } from './messages.ts';
import type { KnobValues } from './policy-defs.ts';

export interface FaultEffect {
  fault: FaultName;
  /** false when the fault fired on something it could not touch (a header that was not there, a cut on a JSON body). */
  applied: boolean;
  detail: string;
}

export type Outcome = Omit<FaultEffect, 'fault'>;

/** A value now (the model world) or later (the wire tier, whose servers answer asynchronously). */
export type Maybe<T> = T | Promise<T>;

/** What a fault acting before its request may do to the endpoints themselves, beyond the wire; each tier implements it. */
export interface EndpointHooks {
  /** `config-reset`: null once the client's mutable config is back to defaults, else why it was skipped. */
  resetClientConfig(): Maybe<string | null>;
  /** `session-expire` (one: the session the request names, or the newest) and `server-restart` (all):
   *  how many sessions the server forgot, or why it cannot be reached into. */
  forgetSessions(which: 'one' | 'all', sessionId: string | null): Maybe<number | string>;
}

/** A request on its way to the server: the proxy may change it, the load balancer may answer it. */
export interface RequestVerdict {
  request: HttpRequest;
  /** Set when the network answers itself (502) and the request never reaches the server. */
  answer?: HttpResponse;
  effects: FaultEffect[];
  /** The run's values of the knobs policy modules declared, for a registered fault's hooks. */
  knobs: KnobValues;
}

/** A response on its way to the client. */
export interface ResponseVerdict {
  response: HttpResponse;
  /** Who answered: the server, or the load balancer itself (a 502 of its own). */
  from: 'server' | 'load-balancer';
  delayMs: number;
  /** The response's final event was cut off: the server's answer will not reach the client. */
  lostAnswer: boolean;
  effects: FaultEffect[];
  knobs: KnobValues;
}

export interface FaultRule {
  before?(fault: FaultName, request: HttpRequest, hooks: EndpointHooks): Maybe<Outcome>;
  /** null: nothing to record here (the response step records what the fault did). */
  onRequest?(fault: FaultName, v: RequestVerdict): Outcome | null;
  onResponse?(fault: FaultName, v: ResponseVerdict): Outcome;
  /** The response rule reads the body's events: the wire tier then gathers an SSE stream up to its final event first. */
  readsBody?: boolean;
}

export function andThen<T, U>(x: Maybe<T>, f: (t: T) => Maybe<U>): Maybe<U> {
  return x instanceof Promise ? x.then(f) : f(x);
}

const skipped = (why: string): Outcome => ({ applied: false, detail: `skipped: ${why}` });

function forgetting(which: 'one' | 'all'): FaultRule {
  return {
    before: (_fault, request, hooks) =>
      andThen(hooks.forgetSessions(which, request.headers['mcp-session-id'] ?? null), (forgot) =>
        typeof forgot === 'string'
          ? skipped(forgot)
          : forgot > 0
            ? { applied: true, detail: `server forgot ${forgot} session(s)` }
            : { applied: false, detail: 'no live session to forget' },
      ),
  };
}

/** Every built-in family's rule (the compiler holds it to models/faults.ts `FAULTS`). */
export const BUILTIN_RULES: Readonly<Record<BuiltinFaultKind, FaultRule>> = {
  'config-reset': {
    before: (_fault, _request, hooks) =>
      andThen(hooks.resetClientConfig(), (why) =>
        why === null ? { applied: true, detail: 'client config reset to defaults' } : skipped(why),
      ),
  },
  'session-expire': forgetting('one'),
  'server-restart': forgetting('all'),
  'http-502': {
    onRequest(_fault, v) {
      if (v.answer) return { applied: false, detail: 'already answered by the load balancer' };
      v.answer = emptyResponse(502, { 'content-type': 'text/html' });
      return { applied: true, detail: 'load balancer answered 502 Bad Gateway' };
    },
  },
  'strip-header': {
    onRequest(fault, v) {
      const name = strippedHeader(fault)!;
      if (!(name in v.request.headers)) return { applied: false, detail: `no ${name} header to strip` };
      const { [name]: _removed, ...headers } = v.request.headers;
      v.request = { ...v.request, headers };
      return { applied: true, detail: `proxy stripped ${name}` };
    },
  },
  'stream-cut': {
    readsBody: true,
    onResponse(_fault, v) {
      const body = v.response.body;
      if (body.kind !== 'sse' || !body.complete) return { applied: false, detail: 'no complete SSE stream to cut' };
      const final = body.events.findLastIndex((e) => e.event === 'message');
      const events = final < 0 ? body.events.slice(0, -1) : body.events.slice(0, final);
      v.response = { ...v.response, body: { kind: 'sse', events, complete: false } };
      v.lostAnswer = true;
      return { applied: true, detail: `stream ended after ${events.length} of ${body.events.length} events` };
    },
  },
  'response-lost': {
    onResponse(_fault, v) {
      if (v.from !== 'server') return { applied: false, detail: 'no answer from the server to lose (the load balancer answered)' };
      v.response = emptyResponse(502, { 'content-type': 'text/html' });
      v.lostAnswer = true;
      return { applied: true, detail: "load balancer replaced the server's answer with 502 Bad Gateway (the server had run the request)" };
    },
  },
  'connection-reset': {
    // The server is told first (it may cancel); the one entry is written when the response is reset.
    onRequest(_fault, v) {
      if (!v.answer) v.request = { ...v.request, closing: true };
      return null;
    },
    onResponse(_fault, v) {
      if (v.from !== 'server') return { applied: false, detail: 'the load balancer answered: no connection to the server to reset' };
      v.response = CONNECTION_RESET;
      v.lostAnswer = true;
      return { applied: true, detail: 'connection reset mid-response: both sides saw it close' };
    },
  },
  delay: {
    onResponse(fault, v) {
      const ms = delayMs(fault)!;
      v.delayMs += ms;
      return { applied: true, detail: `response held back ${ms} ms` };
    },
  },
};

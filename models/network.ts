// The load balancer and reverse proxy a request crosses: where `at` faults act. Each fault is a
// small rule object; one loop applies the rules that fire at a request, in plan order (msw's
// handler loop is the model). Stateless between requests, so plain functions rather than a machine.
import { delayMs, faultKind, strippedHeader, type FaultName } from './faults.ts';
import { emptyResponse, type HttpRequest, type HttpResponse } from './messages.ts';
import { EXTENSIONS } from './registry.ts';

export interface FaultEffect {
  fault: FaultName;
  /** false when the fault fired on a request it could not touch (a header that was not there, a cut on a JSON body). */
  applied: boolean;
  detail: string;
}

export interface RequestVerdict {
  request: HttpRequest;
  /** Set when the network answers itself (502) and the request never reaches the server. */
  answer?: HttpResponse;
  effects: FaultEffect[];
}

export interface ResponseVerdict {
  response: HttpResponse;
  delayMs: number;
  /** The response's final event was cut off: the server's answer will not reach the client. */
  lostAnswer: boolean;
  effects: FaultEffect[];
}

interface RequestRule {
  onRequest(fault: FaultName, v: RequestVerdict): FaultEffect;
}
interface ResponseRule {
  onResponse(fault: FaultName, v: ResponseVerdict): FaultEffect;
}

const REQUEST_RULES: Partial<Record<string, RequestRule>> = {
  'http-502': {
    onRequest(fault, v) {
      if (v.answer) return { fault, applied: false, detail: 'already answered by the load balancer' };
      v.answer = emptyResponse(502, { 'content-type': 'text/html' });
      return { fault, applied: true, detail: 'load balancer answered 502 Bad Gateway' };
    },
  },
  'strip-header': {
    onRequest(fault, v) {
      const name = strippedHeader(fault)!;
      if (!(name in v.request.headers)) return { fault, applied: false, detail: `no ${name} header to strip` };
      const { [name]: _removed, ...headers } = v.request.headers;
      v.request = { ...v.request, headers };
      return { fault, applied: true, detail: `proxy stripped ${name}` };
    },
  },
};

const RESPONSE_RULES: Partial<Record<string, ResponseRule>> = {
  'stream-cut': {
    onResponse(fault, v) {
      const body = v.response.body;
      if (body.kind !== 'sse' || !body.complete) return { fault, applied: false, detail: 'no complete SSE stream to cut' };
      const final = body.events.findLastIndex((e) => e.event === 'message');
      const events = final < 0 ? body.events.slice(0, -1) : body.events.slice(0, final);
      v.response = { ...v.response, body: { kind: 'sse', events, complete: false } };
      v.lostAnswer = true;
      return { fault, applied: true, detail: `stream ended after ${events.length} of ${body.events.length} events` };
    },
  },
  delay: {
    onResponse(fault, v) {
      const ms = delayMs(fault)!;
      v.delayMs += ms;
      return { fault, applied: true, detail: `response held back ${ms} ms` };
    },
  },
};

/** A fault a policy module adds: it acts at request n, on the request, its response, or both. Its
 *  hooks return what changed rather than mutating anything. */
export interface FaultDef {
  /** The fault's name in plans and `--faults` (no ':'). */
  name: string;
  /** One line: what it does (shown by `list` and the reports). */
  describe: string;
  /** The concrete names the arbitraries draw (default: just `name`). */
  instances?: readonly string[];
  request?: (input: { fault: string; request: HttpRequest }) => {
    applied: boolean;
    detail: string;
    /** The request as the server will see it. */
    request?: HttpRequest;
    /** The network answers itself; the request never reaches the server. */
    answer?: HttpResponse;
  };
  response?: (input: { fault: string; response: HttpResponse }) => {
    applied: boolean;
    detail: string;
    response?: HttpResponse;
    delayMs?: number;
    /** The answer will not reach the client (as a cut stream's). */
    lostAnswer?: boolean;
  };
}

function requestRule(kind: string): RequestRule | undefined {
  const builtin = Object.hasOwn(REQUEST_RULES, kind) ? REQUEST_RULES[kind] : undefined;
  if (builtin) return builtin;
  const hook = EXTENSIONS.faults.get(kind)?.request;
  if (!hook) return undefined;
  return {
    onRequest(fault, v) {
      const r = hook({ fault, request: v.request });
      if (r.request) v.request = r.request;
      if (r.answer && !v.answer) v.answer = r.answer;
      return { fault, applied: r.applied, detail: r.detail };
    },
  };
}

function responseRule(kind: string): ResponseRule | undefined {
  const builtin = Object.hasOwn(RESPONSE_RULES, kind) ? RESPONSE_RULES[kind] : undefined;
  if (builtin) return builtin;
  const hook = EXTENSIONS.faults.get(kind)?.response;
  if (!hook) return undefined;
  return {
    onResponse(fault, v) {
      const r = hook({ fault, response: v.response });
      if (r.response) v.response = r.response;
      v.delayMs += r.delayMs ?? 0;
      if (r.lostAnswer) v.lostAnswer = true;
      return { fault, applied: r.applied, detail: r.detail };
    },
  };
}

export function applyRequestFaults(request: HttpRequest, faults: readonly FaultName[]): RequestVerdict {
  const v: RequestVerdict = { request, effects: [] };
  for (const fault of faults) {
    const rule = requestRule(faultKind(fault));
    if (rule) v.effects.push(rule.onRequest(fault, v));
  }
  return v;
}

export function applyResponseFaults(response: HttpResponse, faults: readonly FaultName[]): ResponseVerdict {
  const v: ResponseVerdict = { response, delayMs: 0, lostAnswer: false, effects: [] };
  for (const fault of faults) {
    const rule = responseRule(faultKind(fault));
    if (rule) v.effects.push(rule.onResponse(fault, v));
  }
  return v;
}

export function isRequestFault(fault: FaultName): boolean {
  return requestRule(faultKind(fault)) !== undefined;
}

export function isResponseFault(fault: FaultName): boolean {
  return responseRule(faultKind(fault)) !== undefined;
}

// What a designer's hooks must answer, checked and normalized before the model uses it: a hook
// that answers anything else is a policy error (plugins/sandbox.ts says which).
import type { Transport } from '../../models/capabilities.ts';
import type { InitParams } from '../../models/client-context.ts';
import type { HttpRequest, HttpResponse } from '../../models/messages.ts';
import type { ReinitDecision } from '../../models/policy-defs.ts';
import type { PropertyVerdict } from '../../properties/properties.ts';
import { bad, capabilities, httpResponse, isRecord, ok, oneOf, type Checked } from './sandbox.ts';

export const initParams = (raw: unknown): Checked<InitParams> => {
  if (!isRecord(raw)) return bad('expected { capabilities, transport }');
  const caps = capabilities(raw.capabilities);
  const transport = oneOf<Transport>(['streamable-http', 'sse'])(raw.transport);
  if ('error' in caps) return caps;
  if ('error' in transport) return bad(`transport: ${transport.error}`);
  return ok({ capabilities: caps.value, transport: transport.value });
};

export const decision = (raw: unknown): Checked<ReinitDecision> => {
  if (!isRecord(raw) || !['adopt', 'reject', 'new-session'].includes(raw.kind as string))
    return bad("expected { kind: 'adopt', caps } or { kind: 'reject' } or { kind: 'new-session' }");
  if (raw.kind !== 'adopt') return ok({ kind: raw.kind } as ReinitDecision);
  const caps = capabilities(raw.caps);
  return 'error' in caps ? caps : ok({ kind: 'adopt', caps: caps.value });
};

/** The JSON-RPC message an answer carries (a JSON body's, or an SSE stream's last message), if any. */
function messageOf(r: HttpResponse): Record<string, unknown> | null {
  if (r.body.kind === 'json') return r.body.message as unknown as Record<string, unknown>;
  if (r.body.kind !== 'sse') return null;
  const last = r.body.events.filter((e) => e.event === 'message').at(-1);
  return last && isRecord(last.data) ? last.data : null;
}

const isSuccess = (r: HttpResponse) => r.status >= 200 && r.status < 300;

/** A 2xx answer the client cannot read as an answer: an empty body where a request expects a reply,
 *  or an `initialize` reply without an InitializeResult. Null when the answer is usable. */
function unreadable(answer: HttpResponse, expectsReply: boolean, initialize: boolean): string | null {
  if (!isSuccess(answer)) return null;
  const m = messageOf(answer);
  if (expectsReply && !m)
    return 'a 2xx answer to a JSON-RPC request must carry a message (a result or an error): an empty 2xx leaves the request unanswered';
  if (initialize && !(m && isRecord(m.result) && 'capabilities' in m.result))
    return 'a 2xx answer to initialize must carry an InitializeResult (use errorResponse to refuse the handshake)';
  return null;
}

export function faultResult(kind: 'request' | 'response') {
  return (raw: unknown, input?: unknown): Checked<never> => {
    if (!isRecord(raw) || typeof raw.applied !== 'boolean' || typeof raw.detail !== 'string')
      return bad('expected { applied: boolean, detail: string, … }');
    const r = raw[kind === 'request' ? 'answer' : 'response'];
    const why = r === undefined ? null : httpResponse(r);
    if (why) return bad(why);
    if (r !== undefined && isRecord(input)) {
      const answer = r as HttpResponse;
      const request = kind === 'request' && isRecord(input.request) ? (input.request as unknown as HttpRequest) : null;
      const original = kind === 'response' && isRecord(input.response) ? (input.response as unknown as HttpResponse) : null;
      const rpc = request?.body.rpc;
      const before = original ? messageOf(original) : null;
      const expectsReply = request ? rpc !== 'notifications/initialized' : Boolean(original && isSuccess(original) && before);
      const initialize = request ? rpc === 'initialize' : Boolean(before && isRecord(before.result) && 'capabilities' in before.result);
      const unusable = unreadable(answer, expectsReply, initialize);
      if (unusable) return bad(unusable);
    }
    if (kind === 'request' && raw.request !== undefined && (!isRecord(raw.request) || !isRecord(raw.request.headers)))
      return bad('request should be the request with its headers');
    if (kind === 'response' && raw.delayMs !== undefined && !(Number.isInteger(raw.delayMs) && (raw.delayMs as number) >= 0))
      return bad('delayMs should be a whole number of ms, 0 or more');
    return ok(raw as never);
  };
}

export const verdict = (raw: unknown): Checked<PropertyVerdict> =>
  isRecord(raw) &&
  typeof raw.holds === 'boolean' &&
  typeof raw.reached === 'boolean' &&
  (raw.why === undefined || typeof raw.why === 'string')
    ? ok(raw as unknown as PropertyVerdict)
    : bad('expected { holds: boolean, reached: boolean, why?: string }');

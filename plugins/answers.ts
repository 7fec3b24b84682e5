// What a designer's hooks must answer, checked and normalized before the model uses it: a hook
// that answers anything else is a policy error (plugins/sandbox.ts says which).
import type { Transport } from '../models/capabilities.ts';
import type { InitParams } from '../models/client-context.ts';
import type { ReinitDecision } from '../models/reinit.ts';
import type { PropertyVerdict } from '../properties/properties.ts';
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
  if (!isRecord(raw) || !['adopt', 'reject', 'new-session'].includes(raw.kind as string)) return bad("expected { kind: 'adopt', caps } or { kind: 'reject' } or { kind: 'new-session' }");
  if (raw.kind !== 'adopt') return ok({ kind: raw.kind } as ReinitDecision);
  const caps = capabilities(raw.caps);
  return 'error' in caps ? caps : ok({ kind: 'adopt', caps: caps.value });
};

export function faultResult(kind: 'request' | 'response') {
  return (raw: unknown): Checked<never> => {
    if (!isRecord(raw) || typeof raw.applied !== 'boolean' || typeof raw.detail !== 'string') return bad('expected { applied: boolean, detail: string, … }');
    const r = raw[kind === 'request' ? 'answer' : 'response'];
    const why = r === undefined ? null : httpResponse(r);
    if (why) return bad(why);
    if (kind === 'request' && raw.request !== undefined && (!isRecord(raw.request) || !isRecord(raw.request.headers))) return bad('request should be the request with its headers');
    if (kind === 'response' && raw.delayMs !== undefined && !(Number.isInteger(raw.delayMs) && (raw.delayMs as number) >= 0)) return bad('delayMs should be a whole number of ms, 0 or more');
    return ok(raw as never);
  };
}

export const verdict = (raw: unknown): Checked<PropertyVerdict> =>
  isRecord(raw) && typeof raw.holds === 'boolean' && typeof raw.reached === 'boolean' && (raw.why === undefined || typeof raw.why === 'string')
    ? ok(raw as unknown as PropertyVerdict)
    : bad('expected { holds: boolean, reached: boolean, why?: string }');


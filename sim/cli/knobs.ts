// `--server reinit=honor-last,streaming=negotiated` and `--client reconnect=…,guards=a+b`: parsed
// against the vocabulary, with a one-line error that names the bad knob or value and the valid ones.
import {
  CLIENT_KNOBS,
  knobValues,
  SERVER_KNOBS,
  normalizeGuards,
  type ClientOverrides,
  type Guard,
  type ServerOverrides,
} from '../../models/policies.ts';
import { NO_ADDITIONS, type PolicyAdditions } from '../../models/additions.ts';
import { UsageError } from './errors.ts';

type Knobs = Record<string, { values: readonly string[] }>;

/** Each knob's values as given: one value for `check`, a `|`-separated list for matrices; the open
 *  knobs also take the values `additions`'s policy modules registered. */
export function parseKnobList(
  side: 'server' | 'client',
  text: string,
  additions: PolicyAdditions = NO_ADDITIONS,
): Record<string, string[]> {
  const knobs: Knobs = side === 'server' ? SERVER_KNOBS : CLIENT_KNOBS;
  const out: Record<string, string[]> = {};
  if (text.trim() === '') return out;
  for (const item of text.split(',')) {
    const eq = item.indexOf('=');
    const knob = (eq < 0 ? item : item.slice(0, eq)).trim();
    if (!(knob in knobs)) throw new UsageError(`unknown ${side} knob '${knob}' (valid: ${Object.keys(knobs).join(', ')})`);
    if (eq < 0) throw new UsageError(`${side} knob '${knob}' needs a value: ${knob}=${knobs[knob]!.values.join('|')}`);
    if (knob in out) throw new UsageError(`${side} knob '${knob}' is given twice`);
    const values = item
      .slice(eq + 1)
      .split('|')
      .map((v) => v.trim());
    for (const v of values) validate(side, knob, v, knobValues(side, knob, additions));
    out[knob] = values;
  }
  return out;
}

function validate(side: string, knob: string, value: string, valid: readonly string[]): void {
  if (knob === 'guards') {
    for (const g of value === '' ? [] : value.split('+')) {
      if (!valid.includes(g))
        throw new UsageError(`unknown ${side}.guards value '${g}' (valid: any of ${valid.join(', ')}, joined with '+'; empty for none)`);
    }
    return;
  }
  if (!valid.includes(value)) throw new UsageError(`unknown ${side}.${knob} value '${value}' (valid: ${valid.join(', ')})`);
}

function single(side: string, lists: Record<string, string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, vs] of Object.entries(lists)) {
    if (vs.length !== 1) throw new UsageError(`${side}.${k}: check takes one value, not '${vs.join('|')}' (compare takes lists)`);
    out[k] = vs[0]!;
  }
  return out;
}

export function parseServer(text: string, additions: PolicyAdditions = NO_ADDITIONS): ServerOverrides {
  return single('server', parseKnobList('server', text, additions)) as ServerOverrides;
}

export function parseClient(text: string, additions: PolicyAdditions = NO_ADDITIONS): ClientOverrides {
  const { guards, ...rest } = single('client', parseKnobList('client', text, additions));
  const out: ClientOverrides = { ...(rest as ClientOverrides) };
  if (guards !== undefined) out.guards = normalizeGuards(guards === '' ? [] : (guards.split('+') as Guard[]), additions);
  return out;
}

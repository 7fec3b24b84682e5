// `--server reinit=honor-last,streaming=negotiated` and `--client reconnect=…,guards=a+b`: parsed
// against the vocabulary, with a one-line error that names the bad knob or value and the valid ones.
import { knobOf, knobsOf, knobValues, type ClientOverrides, type ServerOverrides } from '../../models/policies.ts';
import { NO_ADDITIONS, type PolicyAdditions } from '../../models/additions.ts';
import { UsageError } from './errors.ts';

/** Each knob's values as given: one value for `check`, a `|`-separated list for matrices; the knobs
 *  and values `additions`'s policy modules declared are taken too. */
export function parseKnobList(
  side: 'server' | 'client',
  text: string,
  additions: PolicyAdditions = NO_ADDITIONS,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (text.trim() === '') return out;
  for (const item of text.split(',')) {
    const eq = item.indexOf('=');
    const knob = (eq < 0 ? item : item.slice(0, eq)).trim();
    const spec = knobOf(side, knob, additions)?.spec;
    if (!spec)
      throw new UsageError(
        `unknown ${side} knob '${knob}' (valid: ${knobsOf(side, additions)
          .map((k) => k.knob)
          .join(', ')})`,
      );
    if (eq < 0) throw new UsageError(`${side} knob '${knob}' needs a value: ${knob}=${spec.values.join('|')}`);
    if (knob in out) throw new UsageError(`${side} knob '${knob}' is given twice`);
    const values = item
      .slice(eq + 1)
      .split('|')
      .map((v) => v.trim());
    for (const v of values) validate(side, knob, v, spec.values, spec.subset === true);
    out[knob] = values;
  }
  return out;
}

function validate(side: string, knob: string, value: string, valid: readonly string[], subset: boolean): void {
  if (subset) {
    for (const g of value === '' ? [] : value.split('+')) {
      if (!valid.includes(g))
        throw new UsageError(`unknown ${side}.${knob} value '${g}' (valid: any of ${valid.join(', ')}, joined with '+'; empty for none)`);
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

/** One value per knob, a set knob's as the list of its members in knob order. */
function overrides(side: 'server' | 'client', text: string, additions: PolicyAdditions): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [knob, value] of Object.entries(single(side, parseKnobList(side, text, additions)))) {
    const members = value === '' ? [] : value.split('+');
    out[knob] = knobOf(side, knob, additions)!.spec.subset ? knobValues(side, knob, additions).filter((v) => members.includes(v)) : value;
  }
  return out;
}

export function parseServer(text: string, additions: PolicyAdditions = NO_ADDITIONS): ServerOverrides {
  return overrides('server', text, additions) as ServerOverrides;
}

export function parseClient(text: string, additions: PolicyAdditions = NO_ADDITIONS): ClientOverrides {
  return overrides('client', text, additions) as ClientOverrides;
}

// A combination named by what it changes: the knob values where it differs from another (a scope's
// baseline) or from the defaults, as `side.knob=value`, the names the CLI's --server and --client take.
import { DEFAULT_CLIENT, DEFAULT_SERVER, knobText, type Combination } from '../../models/policies.ts';

const DEFAULTS = { server: DEFAULT_SERVER, client: DEFAULT_CLIENT };

/** The knob values where `c` differs from `base` (`side.knob=value`; an empty set is `none`), in knob
 *  order; from the defaults when `base` is null. */
export function changesFrom(c: Combination, base: Combination | null): string[] {
  const out: string[] = [];
  for (const side of ['server', 'client'] as const) {
    const mine = c[side] as unknown as Record<string, unknown>;
    const theirs = (base?.[side] ?? DEFAULTS[side]) as unknown as Record<string, unknown>;
    for (const knob of Object.keys(mine))
      if (knobText(mine[knob]) !== knobText(theirs[knob])) out.push(`${side}.${knob}=${knobText(mine[knob]) || 'none'}`);
  }
  return out;
}

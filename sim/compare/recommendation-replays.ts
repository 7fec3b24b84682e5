// What the mitigation finder's replays tell the recommendation (compare/recommendation.ts) beyond each
// cell's own search. A cell's random runs keep what they draw: a mechanism that needs a rare sequence
// (a duplicate execution under `server.reinit=reject` with a replayed handshake needs a 404 after a
// lost answer) is met by one cell's runs and missed by its neighbour's. The finder replays every silent
// finding's own input on each combination one knob away (compare/mitigations.ts); a replay that went
// silent there by the finding's own mechanism shows that combination silent by it too. Without this,
// one combination whose search missed a mechanism reads as escaping it, and "silent in every
// combination" is lost (the full matrix read "no one mechanism is silent in every one" though it holds
// `client.reissue=always` everywhere and duplicates execution in every cell; issue 39).
import type { Combination } from '../../models/policies.ts';
import { knobText } from '../../models/knobs.ts';
import type { ReportedFinding } from './cell-runner.ts';

/** A combination as a key, a set knob's members in any order. */
export function combinationKey(c: Combination): string {
  const side = (p: object) =>
    Object.entries(p)
      .map(([k, v]) => `${k}=${Array.isArray(v) ? [...v].sort().join('+') : knobText(v)}`)
      .join(',');
  return `${side(c.server)} · ${side(c.client)}`;
}

/** `c` with one change as the finder names it applied (`side.knob=value`, `side.knob+member`,
 *  `side.knob-member`), or null for a name it cannot read (a pair, `a + b`). */
export function changedBy(c: Combination, change: string): Combination | null {
  const m = /^(server|client)\.([^=+-]+)([=+-])(.+)$/.exec(change);
  if (!m || change.includes(' + ')) return null;
  const [, side, knob, op, value] = m as unknown as [string, 'server' | 'client', string, string, string];
  const policy = c[side] as unknown as Record<string, unknown>;
  const current = policy[knob];
  let next: unknown;
  if (op === '=') next = value;
  else if (!Array.isArray(current)) return null;
  else next = op === '+' ? [...current, value] : current.filter((x) => x !== value);
  return { ...c, [side]: { ...policy, [knob]: next } } as Combination;
}

/** A silent finding's input, replayed on another combination, silent there by the finding's mechanism. */
export interface ShownByReplay {
  /** The finding whose input it is (of another cell). */
  finding: ReportedFinding;
  /** The change from that finding's combination to this one. */
  change: string;
}

/** For each combination key among `keys`: the findings (of other cells) whose own input, replayed on
 *  it by the finder, went silent by the finding's own mechanism; in the findings' order. */
export function shownByReplays(findings: readonly ReportedFinding[], keys: ReadonlySet<string>): Map<string, ShownByReplay[]> {
  const out = new Map<string, ShownByReplay[]>();
  for (const f of findings) {
    const mechanism = f.cause?.mechanism;
    if (!mechanism || !f.mitigations) continue;
    for (const m of f.mitigations) {
      if (m.replay !== 'silent' || m.replaySilentBy !== mechanism) continue;
      const target = changedBy(f.combination, m.change);
      const key = target && combinationKey(target);
      if (!key || !keys.has(key)) continue;
      out.set(key, [...(out.get(key) ?? []), { finding: f, change: m.change }]);
    }
  }
  return out;
}

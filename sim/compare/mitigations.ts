// The mitigation finder: for a silent finding, which single knob change makes it hold, and how. Each
// combination one knob value away (a guard added or removed counts as one) first replays the
// finding's own plan, workload and schedule, then runs a random search from the comparison's seed
// over the cell's alphabet; a change "holds" when the replay does not go silent and no searched run
// goes silent by the finding's mechanism (compare/causes.ts; a silent run of another mechanism is
// another cause, counted apart). How it holds is the cell class a designer chooses between: clean,
// loud and recovers, loud and never recovers.
//
// A search's runs, and how they are judged, are compare/mitigation-runs.ts.
import { PolicyError, type PolicyAdditions } from '../../models/additions.ts';
import { combination, knobsOf, type Combination } from '../../models/policies.ts';
import type { Finding } from './findings.ts';
import { propertyNames } from '../../properties/properties.ts';
import { causeOf } from './causes.ts';
import { silentAs, type RunMark, type Searched } from './mitigation-searches.ts';
import { judgeOf, markFor, type MitigationContext } from './mitigation-runs.ts';
import { brokenWithoutFaults } from './fault-free.ts';
import { checkShape } from '../search/random/check.ts';
import type { Workload } from '../core/workload.ts';
import type { Fared } from '../core/fixes-table.ts';

/** How a changed combination fared (core/fixes-table.ts, where the reports read it too). */
export type { Fared };

// Exported here before the runs had a file of their own.
export { MITIGATION_RUNS, runSearch, type MitigationContext } from './mitigation-runs.ts';

/** How the agent's calls fared under a change: a cell class, or the change's own policy failing. */

export interface Mitigation {
  /** `server.reinit=pin-first`, `client.guards+probe`, `client.guards-probe`. */
  change: string;
  /** The finding's own input on the changed combination. */
  replay: Fared;
  /** When the replay went silent: by which mechanism (compare/causes.ts), the finding's own or another.
   *  What the recommendation reads as this combination shown silent by it, where its own search met none. */
  replaySilentBy?: string;
  /** A random search on the changed combination (null when the replay already went silent): in how
   *  many runs the finding's mechanism came back (`sameCause`), how many went silent another way (a
   *  cause of its own, with a group of its own), and how the rest fared. */
  search: { runs: number; sameCause: number; otherSilent: number; fared: Fared } | null;
  /** The replay did not go silent, and the search never met the finding's mechanism again. */
  holds: boolean;
}

/** The properties the finder judges: outcomes come with any judgement; the recovery family (`recovers`)
 *  tells stuck from healing; `at-most-once` tells a tool that ran twice (silent, with no silent call). */
export const MITIGATION_PROPERTIES: readonly string[] = [...propertyNames(['recovery']), 'at-most-once'];

const ORDER: Fared[] = ['clean', 'loud, recovers', 'loud, never recovers', 'policy-error', 'silent'];

/** The cell class of some runs as a finding of `mechanism` reads them (`silentAs`), leaving out those
 *  silent by another mechanism unless `others` (a replay: any silent run is silent). */
function faredOf(marks: readonly RunMark[], mechanism: string, others = false): Fared {
  const kept = marks.filter((m) => others || silentAs(m, mechanism) === null || silentAs(m, mechanism) === mechanism);
  if (kept.some((m) => silentAs(m, mechanism) !== null)) return 'silent';
  if (!kept.some((m) => m.loud)) return 'clean';
  return kept.some((m) => m.stuck) ? 'loud, never recovers' : 'loud, recovers';
}

/** Every combination one knob value away from `c` (a set knob: one member added or removed; the
 *  values and knobs `additions`'s modules added included), with the change's name, in knob order. */
export function neighbours(c: Combination, additions: PolicyAdditions): { change: string; combination: Combination }[] {
  const out: { change: string; combination: Combination }[] = [];
  for (const { side, knob, spec } of [...knobsOf('server', additions), ...knobsOf('client', additions)]) {
    const policy = c[side] as unknown as Record<string, string | string[]>;
    const changed = (value: string | string[]) => {
      const sides = { server: c.server, client: c.client, [side]: { ...c[side], [knob]: value } };
      return combination(sides as Parameters<typeof combination>[0], additions);
    };
    const current = policy[knob];
    if (Array.isArray(current)) {
      for (const v of spec.values) {
        const has = current.includes(v);
        out.push({
          change: `${side}.${knob}${has ? '-' : '+'}${v}`,
          combination: changed(has ? current.filter((x) => x !== v) : [...current, v]),
        });
      }
      continue;
    }
    for (const v of spec.values) if (v !== current) out.push({ change: `${side}.${knob}=${v}`, combination: changed(v) });
  }
  return out;
}

/** The finding's own input replayed under `c` (its mark as the run store has it, or run: `markFor`). */
export function replayOf(f: Finding, c: Combination, x: Omit<MitigationContext, 'cache'>, mechanism = causeOf(f).mechanism): Fared {
  return replayMarkOf(f, c, x, mechanism).fared;
}

/** `replayOf`, with the mechanism the replay went silent by (null when it did not). */
export function replayMarkOf(
  f: Finding,
  c: Combination,
  x: Omit<MitigationContext, 'cache'>,
  mechanism = causeOf(f).mechanism,
): { fared: Fared; silentBy: string | null } {
  try {
    const mark = markFor(judgeOf(c, x), [f.plan, f.workload, f.schedule], x);
    const fared = faredOf([mark], mechanism, true);
    return { fared, silentBy: fared === 'silent' ? mark.silent : null };
  } catch (e) {
    if (e instanceof PolicyError) return { fared: 'policy-error', silentBy: null };
    throw e;
  }
}

/** A finding the agent never hears of: a call came back wrong or hung, or a tool ran twice for one call. */
export function isSilentFinding(f: Finding): boolean {
  if (f.kind !== 'violation') return false;
  return (
    f.outcomes.some((o) => o.outcome === 'silent-empty' || o.outcome === 'silent-hang') ||
    f.properties.some((p) => p.property === 'at-most-once')
  );
}

export interface Tried {
  change: string;
  combination: Combination;
  /** Why the change breaks the fault-free run (then it is not replayed), or null. */
  broken: string | null;
  /** The finding's own input under the change; null when the change breaks the fault-free run. */
  replay: Fared | null;
  /** The mechanism a silent replay went silent by, else null. */
  silentBy: string | null;
}

/** A change the finder considered and left out: its combination is broken without faults. */
export interface WouldBreak {
  change: string;
  reason: string;
}

/** Why `c` is broken without faults under the finding's cell's alphabet and shape (as a cell of `c`
 *  would be classed: compare/fault-free.ts), from the finder's judge of `c`; null when it works. */
export function brokenUnder(c: Combination, x: Omit<MitigationContext, 'cache'>): string | null {
  try {
    const j = judgeOf(c, x);
    const runs = { reference: (w: Workload) => j.reference(w), history: (w: Workload) => j.history([], w, []).entries };
    return brokenWithoutFaults(c, runs, checkShape(c, x.faults, x.shape))?.reason ?? null;
  } catch (e) {
    // The change's own policy failing shows in its replay, as before.
    if (e instanceof PolicyError) return null;
    throw e;
  }
}

/** Each neighbour with its replay of the finding's own input; a search only where it did not go silent.
 *  A neighbour broken without faults is not replayed (`brokenUnder`). The input is replayed under the
 *  finding's own combination first: its run, kept in the run store with the knobs it read, answers
 *  every neighbour that changes a knob it never read, without a run of its own. */
export function replaysOf(f: Finding, x: Omit<MitigationContext, 'cache'>): Tried[] {
  const mechanism = causeOf(f).mechanism;
  replayOf(f, f.combination, x, mechanism);
  return neighbours(f.combination, x.config.world.additions).map(({ change, combination: c }) => {
    const broken = brokenUnder(c, x);
    if (broken !== null) return { change, combination: c, broken, replay: null, silentBy: null };
    const { fared, silentBy } = replayMarkOf(f, c, x, mechanism);
    return { change, combination: c, broken, replay: fared, silentBy };
  });
}

/** A change worth a search: it works without faults and its replay neither went silent nor failed. */
export const searched = (t: Tried) => t.replay !== null && t.replay !== 'silent' && t.replay !== 'policy-error';

/** The changes left out because they break the fault-free run, in knob order. */
export function wouldBreakOf(tried: readonly Tried[]): WouldBreak[] {
  return tried.flatMap((t) => (t.broken === null ? [] : [{ change: t.change, reason: t.broken }]));
}

/** How a change fared overall: the worse of its replay and its search. */
export function overall(m: Mitigation): Fared {
  return ORDER[Math.max(ORDER.indexOf(m.replay), ORDER.indexOf(m.search?.fared ?? m.replay))]!;
}

/** One change's mitigation from its replay (and the mechanism it went silent by) and its search's runs (null: none ran). */
export function mitigationOf(
  f: Finding,
  change: string,
  replay: Fared,
  marks: Searched | null,
  silentBy: string | null = null,
): Mitigation {
  const mechanism = causeOf(f).mechanism;
  if (!marks) return { change, replay, ...(silentBy ? { replaySilentBy: silentBy } : {}), search: null, holds: false };
  if (marks === 'policy-error')
    return { change, replay, search: { runs: 0, sameCause: 0, otherSilent: 0, fared: 'policy-error' }, holds: false };
  const sameCause = marks.filter((m) => silentAs(m, mechanism) === mechanism).length;
  const otherSilent = marks.filter((m) => silentAs(m, mechanism) !== null && silentAs(m, mechanism) !== mechanism).length;
  const fared = faredOf(marks, mechanism);
  return { change, replay, search: { runs: marks.length, sameCause, otherSilent, fared }, holds: sameCause === 0 };
}

/** The mitigations from the replays and the searches (null where none ran), those broken without
 *  faults left out, ranked: those that hold first (clean, then loud and recovers, then loud and never
 *  recovers), then the rest; knob order within a rank. */
export function ranked(f: Finding, tried: readonly Tried[], marksOf: readonly (Searched | null)[]): Mitigation[] {
  const all = tried.flatMap((t, i) =>
    t.replay === null ? [] : [{ m: mitigationOf(f, t.change, t.replay, marksOf[i] ?? null, t.silentBy), i }],
  );
  const rank = (m: Mitigation) => (m.holds ? ORDER.indexOf(overall(m)) : 10 + ORDER.indexOf(m.replay));
  return all.sort((a, b) => rank(a.m) - rank(b.m) || a.i - b.i).map(({ m }) => m);
}

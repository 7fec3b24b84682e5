// Two changes where one is not enough: when no single change holds clean for a silent finding, the
// finder tries pairs of single changes (compare/mitigations.ts), a bounded, deterministic search. Two
// changes that each break the fault-free run alone come first: together they may be one move of both
// sides (the client and the server both to 2026-07-28). Then the pairs in the order of their two
// changes' ranks (the best-ranked single changes first, pairs of two good ones before a good one with
// a poor one; those that break the fault-free run alone last), two values of one knob never paired. Each
// pair tried is judged without faults first (a pair broken without faults is left out, counted), then
// replays the finding's input; the first PAIRS_SEARCHED whose replay is clean are searched, and those
// that hold clean are the two-change fixes. A pair's search runs the search's inputs (as a single
// change's does) and stops at the first run that is not clean: only a pair that holds clean is a fix
// here, so most searches end after a few runs. Every bound is a count, never a time: the same
// comparison tries the same pairs.
import type { Combination } from '../../models/policies.ts';
import { PolicyError } from '../../models/additions.ts';
import type { Finding } from './findings.ts';
import { causeOf } from './causes.ts';
import { drawsOf, judgeOf, markFor, searchedCombination, type MitigationContext } from './mitigation-runs.ts';
import { brokenUnder, neighbours, overall, replayOf, type Mitigation, type Tried } from './mitigations.ts';
import { silentAs } from './mitigation-searches.ts';

/** Pairs tried at most per finding: each costs its fault-free runs (shared references) and one replay.
 *  Trying stops once PAIRS_SEARCHED pairs replayed clean. */
export const PAIRS_TRIED = 60;
/** Pairs searched at most per finding (MITIGATION_RUNS runs each, shared with every finding asking the same). */
export const PAIRS_SEARCHED = 8;

/** What the pair search did for one finding, for the report to say. */
export interface PairSearch {
  /** Pairs tried (at most PAIRS_TRIED), of how many pairs of distinct knobs there are. */
  tried: number;
  of: number;
  /** Of those tried: broken without faults, and searched (their replay came back clean). */
  broken: number;
  searched: number;
  /** The pairs that hold clean, in the order tried (`change`: `a + b`). Empty: none found within the bounds. */
  found: Mitigation[];
}

/** The knob a change turns: `server.reinit`, or one guard (`client.guards+probe` and `-probe` are one). */
function knobOf(change: string): string {
  const guard = /^client\.guards[+-](.*)$/.exec(change);
  return guard ? `client.guards:${guard[1]}` : change.split('=')[0]!;
}

/** Whether this finding's single changes leave a pair search to do: none holds clean. */
export function needsPairs(singles: readonly Mitigation[]): boolean {
  return !singles.some((m) => m.holds && overall(m) === 'clean');
}

interface Candidate {
  change: string;
  combination: Combination;
}

/** The first `limit` pairs (i < j) of `n` changes in the order they are tried, and how many there are:
 *  only pairs of different knobs (`knobs[i]`), those whose two changes both break the fault-free run
 *  (`broken[i]`) first, then by i + j, then by i. The same as sorting every pair by that key and taking
 *  the first `limit` (test/sim/compare/mitigation-pairs.test.ts checks it against that sort), without
 *  the sort: a full matrix asks it of thousands of findings, each with hundreds of pairs, and the sort
 *  was most of a pair search's time. */
export function pairIndices(
  knobs: readonly string[],
  broken: readonly boolean[],
  limit: number,
): { indices: [number, number][]; of: number } {
  const n = knobs.length;
  const perKnob = new Map<string, number>();
  for (const k of knobs) perKnob.set(k, (perKnob.get(k) ?? 0) + 1);
  // Pairs of different knobs: each knob's changes with those of the knobs counted before it.
  let of = 0;
  let before = 0;
  for (const c of perKnob.values()) {
    of += c * before;
    before += c;
  }
  const indices: [number, number][] = [];
  for (const bothBroken of [true, false])
    for (let sum = 1; sum <= 2 * n - 3 && indices.length < limit; sum++)
      for (let i = Math.max(0, sum - (n - 1)); 2 * i < sum && indices.length < limit; i++) {
        const j = sum - i;
        if (knobs[i] !== knobs[j] && (broken[i]! && broken[j]!) === bothBroken) indices.push([i, j]);
      }
  return { indices, of };
}

/** The pairs in the order they are tried (`pairIndices`): the single changes in `order` are ranked,
 *  the broken ones last. */
function pairsInOrder(order: readonly Tried[], x: Omit<MitigationContext, 'cache'>): { pairs: Candidate[]; of: number } {
  const { indices, of } = pairIndices(
    order.map((t) => knobOf(t.change)),
    order.map((t) => t.broken !== null),
    PAIRS_TRIED,
  );
  // The neighbours of each first change once: the pairs tried share a few first changes, and building
  // a change's neighbours (every combination one value away) was most of a pair search's time.
  const neighboursOf = new Map<number, Map<string, Combination>>();
  const pairs: Candidate[] = [];
  for (const [i, j] of indices) {
    const a = order[i]!;
    const b = order[j]!;
    let next = neighboursOf.get(i);
    if (!next)
      neighboursOf.set(i, (next = new Map(neighbours(a.combination, x.config.world.additions).map((n) => [n.change, n.combination]))));
    // b applied on top of a: the same value b gives, with a's knob as a has it.
    const second = next.get(b.change);
    if (second) pairs.push({ change: `${a.change} + ${b.change}`, combination: second });
  }
  return { pairs, of };
}

/** The search of `changed` as a single change's (its inputs, its combination), stopped at the first run
 *  that is loud or silent by `mechanism` (a run silent another way is another cause, left out as the
 *  finder leaves it out): the pair as a mitigation when every run is clean, else null. */
function cleanSearch(change: string, changed: Combination, mechanism: string, x: Omit<MitigationContext, 'cache'>): Mitigation | null {
  const c = searchedCombination(changed, x.shape);
  try {
    const j = judgeOf(c, x);
    const drawn = drawsOf(x);
    let otherSilent = 0;
    for (const input of drawn) {
      const mark = markFor(j, input, x);
      const silent = silentAs(mark, mechanism);
      if (silent === mechanism || (silent === null && mark.loud)) return null;
      if (silent !== null) otherSilent++;
    }
    return { change, replay: 'clean', search: { runs: drawn.length, sameCause: 0, otherSilent, fared: 'clean' }, holds: true };
  } catch (e) {
    if (e instanceof PolicyError) return null;
    throw e;
  }
}

/** The pair search for `f`, whose single changes are `tried` (each neighbour) ranked as `singles`. */
export function pairSearch(
  f: Finding,
  tried: readonly Tried[],
  singles: readonly Mitigation[],
  x: Omit<MitigationContext, 'cache'>,
): PairSearch {
  // The single changes in their ranked order, those that break the fault-free run last (in knob order).
  const byChange = new Map(tried.map((t) => [t.change, t]));
  const order = [...singles.map((m) => byChange.get(m.change)!), ...tried.filter((t) => t.broken !== null)];
  const { pairs, of } = pairsInOrder(order, x);
  let broken = 0;
  let triedPairs = 0;
  const clean: Candidate[] = [];
  for (const p of pairs) {
    if (clean.length === PAIRS_SEARCHED) break;
    triedPairs++;
    if (brokenUnder(p.combination, x) !== null) broken++;
    else if (replayOf(f, p.combination, x) === 'clean') clean.push(p);
  }
  const mechanism = causeOf(f).mechanism;
  const found = clean.flatMap((p) => cleanSearch(p.change, p.combination, mechanism, x) ?? []);
  return { tried: triedPairs, of, broken, searched: clean.length, found };
}

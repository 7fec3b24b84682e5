// The shrink's verdicts shared by combinations (`sharedVerdicts`). Cells of one comparison draw the
// same inputs from the same seed, and a shrink's candidates follow from its counterexample and the
// verdicts met on the way: the cells of a matrix shrink along the same candidates again and again.
// A candidate's verdicts are a function of the input, the world's options and the knob values its run
// read (its reference's reads counted in: world-runner.ts `trackedRunner`), so a cell whose
// combination agrees with an earlier run's on those knobs takes its verdicts without a run (the full
// matrix's main thread: 43,530 of 60,291 candidates; the default comparison's: 1,431 of 2,483). Speed
// only: the verdicts are those its own run gives, and so is every shrunk plan
// (test/sim/search/verdict-memo.test.ts). One memo per thread: everything here is synchronous.
import type { Combination } from '../../../models/policies.ts';
import type { Property } from '../../../properties/properties.ts';
import type { WorldOptions } from '../../world/world.ts';
import type { Judged, Maybe } from './input-judge.ts';
import { ALL_KNOBS } from './read-set.ts';
import { ReadSetMemo, valuesInOf, worldKey } from './read-set-memo.ts';

/** Candidates' verdicts kept at most (as bits: a property violated, by its index): some three times
 *  what a full matrix's thread keeps (16,761 on the main thread), a few tens of MB of keys at most. */
const memo = new ReadSetMemo<number>(50_000);

/** This thread's candidates answered from the memo (those that violate some property among them), and
 *  judgements kept in it. */
export const sharedVerdictCounts = { found: 0, foundViolating: 0, kept: 0 };

/** Property objects by identity: two properties of one name (a test's, a policy module's) never share. */
const propertyIds = new WeakMap<Property, number>();
let nextPropertyId = 0;
function propertyId(p: Property): number {
  let id = propertyIds.get(p);
  if (id === undefined) propertyIds.set(p, (id = nextPropertyId++));
  return id;
}

/** What the shrink asks: the properties a candidate violates (bit i: `properties[i]`), if known; and
 *  its run, judged, whose verdicts are kept for the next combination. */
export interface SharedVerdicts {
  /** By the input's key (input-judge.ts `keyOf`). */
  violated(key: string): number | undefined;
  judge(key: string, run: () => Maybe<Judged>): Maybe<Judged>;
}

/**
 * The memo as the shrinks of combination `c` under `world`, judging `properties`, use it.
 * `readsOfLast`: the knobs the run judged last read, or every knob where unknown (no run since it was
 * last asked: a judgement the judge remembered; a run that failed): such a judgement is not kept.
 * Undefined where the verdicts do not fit the bits (more than 30 properties).
 */
export function sharedVerdicts(
  c: Combination,
  world: Partial<WorldOptions>,
  properties: readonly Property[],
  readsOfLast: () => number,
): SharedVerdicts | undefined {
  if (properties.length > 30) return undefined;
  const valuesIn = valuesInOf(c);
  const at = `${worldKey(world)}\u0000${properties.map(propertyId).join(',')}\u0000`;
  return {
    violated(key) {
      const found = memo.find(at + key, valuesIn);
      if (found) sharedVerdictCounts.found++;
      if (found && found.value !== 0) sharedVerdictCounts.foundViolating++;
      return found?.value;
    },
    judge(key, run) {
      readsOfLast(); // what ran before this run is not its reads
      const j = run();
      if (j instanceof Promise) return j;
      const reads = readsOfLast();
      if (reads === ALL_KNOBS) return j;
      let bits = 0;
      for (let i = 0; i < properties.length; i++) if (!j.judgement.verdicts[properties[i]!.name]!.holds) bits |= 1 << i;
      memo.add(at + key, reads, valuesIn, bits);
      sharedVerdictCounts.kept++;
      return j;
    },
  };
}

/** Forget every shared verdict (tests). */
export function clearSharedVerdicts(): void {
  memo.clear();
}

// Values that are a function of an input and of the knob values its run read (read-set.ts): kept by
// the input's key and the knobs read, then by the values the combination that computed them gave
// those knobs. Another combination gets a kept value where it agrees on every knob read: a lookup tries
// each set of knobs kept for the key (runs of one input read few different sets), one Map lookup each.
// The finder's marks (compare/mitigation-memo.ts) are kept so, until it asks the run store.
import type { Combination } from '../../../models/policies.ts';
import { ALL_KNOBS, knobValues } from './read-set.ts';

/** Every combination's knob values in some mask, as a small integer: equal values on the same
 *  knobs, one id (one table per thread). A memo's lookup then compares numbers, not strings. */
const projectedIds = new Map<string, number>();

/** A combination's knob values in a mask, as one id: `valuesIn(mask)`, worked out once per mask. */
export function valuesInOf(c: Combination): (mask: number) => number {
  const values = knobValues(c);
  // By mask (a mask is below 2^knobs): an array slot, not a Map lookup, on every ask.
  const ids = new Int32Array(ALL_KNOBS + 1).fill(-1);
  return (mask) => {
    let id = ids[mask]!;
    if (id < 0) {
      const key = `${mask}:${values.filter((_, i) => (mask & (1 << i)) !== 0).join('\u0000')}`;
      let known = projectedIds.get(key);
      if (known === undefined) projectedIds.set(key, (known = projectedIds.size));
      ids[mask] = id = known;
    }
    return id;
  };
}

export class ReadSetMemo<T, K extends string | number = string> {
  private readonly slots = new Map<K, Map<number, Map<number, T>>>();
  private kept = 0;

  /** `limit`: values kept at most; past it the memo starts again. */
  constructor(private readonly limit: number) {}

  /** A value kept for `key` by a combination that agrees with `valuesIn`'s on the knobs it read, and
   *  those knobs: the first that `accept` takes (any, without it). */
  find(key: K, valuesIn: (mask: number) => number, accept?: (value: T) => boolean): { value: T; reads: number } | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    for (const [reads, byValues] of slot) {
      const value = byValues.get(valuesIn(reads));
      if (value !== undefined && (!accept || accept(value))) return { value, reads };
    }
    return undefined;
  }

  /** `value` was computed for `key` by a run that read `reads`, under `valuesIn`'s combination. One
   *  kept for the same knobs and values stays where `replaces(kept, value)` says no. */
  add(key: K, reads: number, valuesIn: (mask: number) => number, value: T, replaces?: (kept: T, value: T) => boolean): void {
    if (this.kept >= this.limit) this.clear();
    let slot = this.slots.get(key);
    if (!slot) this.slots.set(key, (slot = new Map()));
    let byValues = slot.get(reads);
    if (!byValues) slot.set(reads, (byValues = new Map()));
    const values = valuesIn(reads);
    const kept = byValues.get(values);
    if (kept !== undefined && replaces && !replaces(kept, value)) return;
    if (kept === undefined) this.kept++;
    byValues.set(values, value);
  }

  clear(): void {
    this.slots.clear();
    this.kept = 0;
  }
}

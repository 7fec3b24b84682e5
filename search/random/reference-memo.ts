// Fault-free references shared by combinations (`sharedReferences`). A workload's reference is its
// fault-free run (no plan, no schedule): a function of the workload, the world's options and the knob
// values that run reads (read-set.ts). A judge of a tracked combination looks for a reference of the
// same workload, under the same world, computed by a combination that agrees on every knob it read,
// before running one. Each cell of a matrix and each of the finder's searches ran its own (≈ 11% of a
// full matrix's CPU time), though a fault-free run reads few knobs (mostly the two protocols, the
// parser and the guards): on the full matrix's main thread 1,870 references now run, not 148,000.
// Speed only: a reference found here is the one the judge would have computed
// (test/search/reference-memo.test.ts). One memo per thread: everything here is synchronous.
import type { Combination } from '../../models/policies.ts';
import type { Reference } from '../../properties/outcomes.ts';
import type { Workload } from '../../core/workload.ts';
import type { WorldOptions } from '../../world/world.ts';
import type { Maybe } from './input-judge.ts';
import { knobValues, noteReads, readsDuring } from './read-set.ts';

/** The references of one workload under one world, by the knobs their runs read: for each such set
 *  of knobs, by the values the combination that computed it gave them. A fault-free run reads the
 *  same few knobs under most combinations, so a lookup tries a few sets, each one Map lookup. */
type Slot = Map<number, Map<string, Reference>>;

/** References kept at most (a full matrix's main thread computes 1,870): past it the memo starts again. */
const KEPT_REFERENCES = 100_000;

/** This thread's references, by world and workload key. */
const memo = new Map<string, Slot>();
let kept = 0;

/** Object-valued world options (an engine of steppers, a registry's extensions) by identity. */
const objectIds = new WeakMap<object, number>();
let nextObjectId = 0;

/** The world's options as one key: every option by value, an object by identity (two worlds that
 *  differ in any option never share; two equal ones written differently only miss a share). */
export function worldKey(world: Partial<WorldOptions>): string {
  return Object.keys(world)
    .sort()
    .map((k) => {
      const v = (world as Record<string, unknown>)[k];
      if (v === undefined) return '';
      if (typeof v !== 'object' && typeof v !== 'function') return `${k}=${typeof v}:${String(v)}`;
      let id = objectIds.get(v as object);
      if (id === undefined) objectIds.set(v as object, (id = nextObjectId++));
      return `${k}=#${id}`;
    })
    .filter((s) => s !== '')
    .join('|');
}

/** What a judge asks of the memo: the reference of this workload (key: input-judge.ts `workloadKey`),
 *  from the memo or from `compute`, the fault-free run of its own (tracked) combination. */
export interface SharedReferences {
  get(key: string, workload: Workload, compute: () => Maybe<Reference>): Maybe<Reference>;
}

/**
 * The memo as a judge of combination `c` under `world` uses it. A reference found counts its reads
 * in the current `readsDuring` scope, as running it would have; `onReads` is told the reads of each
 * reference the judge gets (found or computed), for a runner that keeps them by workload.
 */
export function sharedReferences(
  c: Combination,
  world: Partial<WorldOptions>,
  onReads?: (workload: Workload, reads: number) => void,
): SharedReferences {
  const values = knobValues(c);
  /** These values of the knobs in a mask, as one key (worked out once per mask). */
  const projected = new Map<number, string>();
  const valuesIn = (mask: number): string => {
    let key = projected.get(mask);
    if (key === undefined) projected.set(mask, (key = values.filter((_, i) => (mask & (1 << i)) !== 0).join('\u0000')));
    return key;
  };
  const at = `${worldKey(world)}\u0000`;
  return {
    get(key, workload, compute) {
      const slotKey = at + key;
      let slot = memo.get(slotKey);
      if (slot) {
        for (const [reads, byValues] of slot) {
          const found = byValues.get(valuesIn(reads));
          if (found === undefined) continue;
          noteReads(reads);
          onReads?.(workload, reads);
          return found;
        }
      }
      const [reference, reads] = readsDuring(compute);
      // Only the model world's synchronous references are shared (a runner of real code has none here).
      if (reference instanceof Promise) return reference;
      onReads?.(workload, reads);
      if (kept >= KEPT_REFERENCES) {
        memo.clear();
        kept = 0;
        slot = undefined;
      }
      if (!slot) memo.set(slotKey, (slot = new Map()));
      let byValues = slot.get(reads);
      if (!byValues) slot.set(reads, (byValues = new Map()));
      byValues.set(valuesIn(reads), reference);
      kept++;
      return reference;
    },
  };
}

/** Forget every shared reference (tests). */
export function clearSharedReferences(): void {
  memo.clear();
  kept = 0;
}

// Fault-free references shared by combinations (`sharedReferences`). A workload's reference is its
// fault-free run (no plan, no schedule): a function of the workload, the world's options and the knob
// values that run reads (read-set.ts). A judge of a tracked combination looks for a reference of the
// same workload, under the same world, computed by a combination that agrees on every knob it read,
// before running one. Each cell of a matrix and each of the finder's searches ran its own (≈ 11% of a
// full matrix's CPU time), though a fault-free run reads few knobs (mostly the two protocols, the
// parser and the guards): on the full matrix's main thread 1,870 references now run, not 148,000.
// Speed only: a reference found here is the one the judge would have computed
// (test/sim/search/reference-memo.test.ts). One memo per thread: everything here is synchronous.
import type { Combination } from '../../../models/policies.ts';
import type { Reference } from '../../../properties/outcomes.ts';
import type { Workload } from '../../core/workload.ts';
import type { WorldOptions } from '../../world/world.ts';
import type { Maybe } from './input-judge.ts';
import { noteReads, readsDuring } from './read-set.ts';
import { ReadSetMemo, valuesInOf, worldKey } from './read-set-memo.ts';

/** References kept at most (a full matrix's main thread computes 1,870): past it the memo starts again. */
const memo = new ReadSetMemo<Reference>(20_000);

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
  const valuesIn = valuesInOf(c);
  const at = `${worldKey(world)}\u0000`;
  return {
    get(key, workload, compute) {
      const found = memo.find(at + key, valuesIn);
      if (found) {
        noteReads(found.reads);
        onReads?.(workload, found.reads);
        return found.value;
      }
      const [reference, reads] = readsDuring(compute);
      // Only the model world's synchronous references are shared (a runner of real code has none here).
      if (reference instanceof Promise) return reference;
      onReads?.(workload, reads);
      memo.add(at + key, reads, valuesIn, reference);
      return reference;
    },
  };
}

/** Forget every shared reference (tests). */
export function clearSharedReferences(): void {
  memo.clear();
}

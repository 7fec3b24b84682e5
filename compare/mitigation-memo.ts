// The finder's marks of drawn inputs, remembered with the knobs each run read (search/random/read-set.ts):
// a search of another combination that agrees on every knob a remembered run of input i read gets
// that run's mark without running it. Every search of one comparison under an alphabet and shape
// runs the same drawn inputs (mitigation-runs.ts `drawsOf`), and each is one knob away from a
// finding's cell, so most of its runs read the same knobs as an earlier search's.
//
// A mark is a function of the input and of the knob values its runs read (the judged run, the
// recorded one of a silent run, the reference): its judgement, and a silent run's mechanism.
// Speed only: whether a mark is reused or run, it is the same (test/compare/mitigation-memo.test.ts).
//
// Kept per input by the knobs read, then by the values the running combination gave them
// (search/random/read-set-memo.ts `valueIdsInOf`): a lookup is one Map lookup per set of knobs read
// (runs of one input read few different sets), where a scan of every remembered run compared each
// run's values with the search's (a full matrix asked that some sixty million times).
import type { RunMark } from './mitigation-searches.ts';

/** A run of one input under some combination: the knobs it read, its flags (mitigation-runs.ts
 *  `flagsOf`) and, unless it went silent and its mechanism was never read (a cell's run, judged as
 *  it went), its mark. */
export interface Seen {
  reads: number;
  flags: number;
  mark: RunMark | null;
}

/** Runs kept per input at most: past it that input's are forgotten (a full matrix has thousands of searches). */
const KEPT_PER_INPUT = 256;

/** One input's remembered runs: by the knobs read (`reads[k]`), then by those knobs' values (`byValues[k]`). */
interface Kept {
  reads: number[];
  byValues: Map<number, Seen>[];
  count: number;
}

/** The remembered runs of one sequence of drawn inputs, by the input's index. */
export class MarkMemo {
  private readonly byInput: (Kept | undefined)[] = [];

  /** A remembered run of input `i` that read only knobs on which it agrees with the search's
   *  combination (`valuesIn`: its values in a mask, read-set-memo.ts `valueIdsInOf`): one with its mark first. */
  find(i: number, valuesIn: (mask: number) => number): Seen | undefined {
    const kept = this.byInput[i];
    if (!kept) return undefined;
    let flagsOnly: Seen | undefined;
    for (let k = 0; k < kept.reads.length; k++) {
      const s = kept.byValues[k]!.get(valuesIn(kept.reads[k]!));
      if (s === undefined) continue;
      if (s.mark) return s;
      flagsOnly ??= s;
    }
    return flagsOnly;
  }

  /** Input `i` ran under `valuesIn`'s combination and read `seen.reads`. A run with its mark is not
   *  replaced by one with flags only (both say the same; the mark saves a recorded run). */
  add(i: number, valuesIn: (mask: number) => number, seen: Seen): void {
    let kept = this.byInput[i];
    if (!kept || kept.count >= KEPT_PER_INPUT) this.byInput[i] = kept = { reads: [], byValues: [], count: 0 };
    let k = kept.reads.indexOf(seen.reads);
    if (k < 0) k = kept.reads.push(seen.reads) - 1;
    const byValues = (kept.byValues[k] ??= new Map());
    const key = valuesIn(seen.reads);
    const had = byValues.get(key);
    if (had?.mark && !seen.mark) return;
    if (!had) kept.count++;
    byValues.set(key, seen);
  }
}

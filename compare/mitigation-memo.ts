// The finder's marks of drawn inputs, remembered with the knobs each run read (search/random/read-set.ts):
// a search of another combination that agrees on every knob a remembered run of input i read gets
// that run's mark without running it. Every search of one comparison under an alphabet and shape
// runs the same drawn inputs (mitigation-runs.ts `drawsOf`), and each is one knob away from a
// finding's cell, so most of its runs read the same knobs as an earlier search's.
//
// A mark is a function of the input and of the knob values its runs read (the judged run, the
// recorded one of a silent run, the reference): its judgement, and a silent run's mechanism.
// Speed only: whether a mark is reused or run, it is the same (test/compare/mitigation-memo.test.ts).
import type { RunMark } from './mitigation-searches.ts';

/** A run of one input under some combination: the values of its knobs, the knobs it read, its
 *  flags (mitigation-runs.ts `flagsOf`) and, unless it went silent and its mechanism was never read
 *  (a cell's run, judged as it went), its mark. */
export interface Seen {
  /** Its knob values' id (search/random/read-set.ts `valuesId`). */
  values: number;
  reads: number;
  flags: number;
  mark: RunMark | null;
}

/** Runs kept per input at most: past it the oldest goes (a full matrix has thousands of searches). */
const KEPT_PER_INPUT = 64;

/** The remembered runs of one sequence of drawn inputs, by the input's index. */
export class MarkMemo {
  private readonly byInput: Seen[][] = [];

  /** A remembered run of input `i` that read only knobs on which it agrees with these values
   *  (read-set.ts `knobValues`): one with its mark first. `differs` is `differing` from them, kept
   *  per remembered values (one array per search or cell, met again at every input). */
  find(i: number, differs: (values: number) => number): Seen | undefined {
    const seen = this.byInput[i];
    if (!seen) return undefined;
    let flagsOnly: Seen | undefined;
    for (const s of seen) {
      if ((differs(s.values) & s.reads) !== 0) continue;
      if (s.mark) return s;
      flagsOnly ??= s;
    }
    return flagsOnly;
  }

  /** Input `i` ran under these knob values and read `reads`. */
  add(i: number, seen: Seen): void {
    const kept = (this.byInput[i] ??= []);
    if (kept.length >= KEPT_PER_INPUT) kept.shift();
    kept.push(seen);
  }
}

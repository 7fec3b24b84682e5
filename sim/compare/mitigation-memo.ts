// The finder's marks of drawn inputs, remembered with the knobs each run read (search/random/read-set.ts):
// a search of another combination that agrees on every knob a remembered run of input i read gets
// that run's mark without running it. Every search of one comparison under an alphabet and shape
// runs the same drawn inputs (mitigation-runs.ts `drawsOf`), and each is one knob away from a
// finding's cell, so most of its runs read the same knobs as an earlier search's.
//
// A mark is a function of the input and of the knob values its runs read (the judged run, the
// recorded one of a silent run, the reference): its judgement, and a silent run's mechanism.
// Speed only: whether a mark is reused or run, it is the same (test/sim/compare/mitigation-memo.test.ts).
// Kept as the shared references and verdicts are (search/random/read-set-memo.ts), by the input's
// index: thousands of searches pass over the same 200 inputs, so the memo keeps every distinct run
// (it kept each input's last 64 in a list and forgot runs later searches needed).
import { ReadSetMemo } from '../search/random/read-set-memo.ts';
import type { RunMark } from './mitigation-searches.ts';

/** A run of one input under some combination: its flags (mitigation-runs.ts `flagsOf`) and, unless
 *  it went silent and its mechanism was never read (a cell's run, judged as it went), its mark. */
export interface Seen {
  flags: number;
  mark: RunMark | null;
}

/** Runs kept at most for one sequence of drawn inputs (≤ 200 of them): past it the memo starts again. */
const KEPT = 50_000;

const hasMark = (s: Seen) => s.mark !== null;
/** A run with its mark is not replaced by one with flags only: both say the same, and the mark saves a recorded run. */
const replaces = (kept: Seen, s: Seen) => kept.mark === null || s.mark !== null;

/** The remembered runs of one sequence of drawn inputs, by the input's index. */
export class MarkMemo {
  private readonly memo = new ReadSetMemo<Seen, number>(KEPT);

  /** A remembered run of input `i` that read only knobs on which it agrees with the search's
   *  combination (`valuesIn`: read-set-memo.ts `valuesInOf`): one with its mark first. */
  find(i: number, valuesIn: (mask: number) => number): Seen | undefined {
    return (this.memo.find(i, valuesIn, hasMark) ?? this.memo.find(i, valuesIn))?.value;
  }

  /** Input `i` ran under `valuesIn`'s combination and read `reads`. */
  add(i: number, reads: number, valuesIn: (mask: number) => number, seen: Seen): void {
    this.memo.add(i, reads, valuesIn, seen, replaces);
  }
}

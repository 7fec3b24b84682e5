// A bridge for the mitigation finder until it asks the run store (search/run-store.ts) itself: a
// `readsDuring` scope collects the knobs of the runs judged inside it (check.ts `Judge.judged` notes
// each run's reads, which the world returns with it: world/knob-reads.ts).
export { ALL_KNOBS, differing, KNOBS, knobsOf, knobValues, trackable } from '../../world/knob-reads.ts';

/** The reads of the scope that runs now. */
let reads = 0;

/** `f()` and the knobs the runs judged inside it read; they count for the enclosing scope too. */
export function readsDuring<T>(f: () => T): [T, number] {
  const outer = reads;
  reads = 0;
  try {
    const value = f();
    return [value, reads];
  } finally {
    reads |= outer;
  }
}

/** Count `mask` as read in the current scope. */
export function noteReads(mask: number): void {
  reads |= mask;
}

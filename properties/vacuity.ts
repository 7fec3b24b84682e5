// A property that holds where its situation was never reached says nothing: it is vacuous. Decided
// here once, for a random sample and an exhaustive search alike, and carried as a verdict value that
// the reports read (they never decode it from counts or from how they rendered it).
export type SearchVerdict = 'holds' | 'violated' | 'vacuous';

/** `violated` if any run violated it, else `holds` if some run reached its situation, else `vacuous`. */
export function decideVerdict(o: { violated: boolean; reached: boolean }): SearchVerdict {
  return o.violated ? 'violated' : o.reached ? 'holds' : 'vacuous';
}

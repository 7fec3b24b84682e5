// The parts of the sampled runs the run store keeps whole (search/random/input-judge.ts
// `InputJudge.sampled`), each distinct one kept once: a run's coverage is four Sets and its verdicts a
// record of objects, and many runs of a comparison give equal ones. Measured on the first 600 cells of
// the full matrix in one thread (heap after a collection): 11.0 MB with no sampled run kept, 28.0 with
// them kept as run, 24.1 with coverages shared, 21.5 with verdicts shared too. Cleared with the store.
import type { PropertyVerdict } from '../../properties/fold.ts';
import type { Reach } from '../core/reach.ts';

export class SharedParts {
  private readonly coverageOf = new Map<string, Reach>();
  private readonly verdictsOf = new Map<string, Record<string, PropertyVerdict>>();

  /** `reach`, or an equal coverage kept before: the same states and transitions in the same order (the
   *  order a cell's union sees them in). */
  coverage(reach: Reach): Reach {
    let key = '';
    for (const s of reach.client.states) key += `${s}\u0000`;
    key += '\u0001';
    for (const s of reach.client.transitions) key += `${s}\u0000`;
    key += '\u0001';
    for (const s of reach.server.states) key += `${s}\u0000`;
    key += '\u0001';
    for (const s of reach.server.transitions) key += `${s}\u0000`;
    const shared = this.coverageOf.get(key);
    if (shared !== undefined) return shared;
    this.coverageOf.set(key, reach);
    return reach;
  }

  /** `v`, or an equal set of verdicts kept before: by each property's name and verdict (every field of
   *  it: a policy module's property may add some), in order. */
  verdicts(v: Record<string, PropertyVerdict>): Record<string, PropertyVerdict> {
    let key = '';
    for (const name in v) key += `${name}\u0000${JSON.stringify(v[name])}\u0001`;
    const shared = this.verdictsOf.get(key);
    if (shared !== undefined) return shared;
    this.verdictsOf.set(key, v);
    return v;
  }

  clear(): void {
    this.coverageOf.clear();
    this.verdictsOf.clear();
  }
}

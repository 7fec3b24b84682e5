// One level's frontier in search/exhaustive/explore.ts: the states that get one more fault for their
// next request, in the order they were found, as integers only: the base state they fork (an index),
// their id in the path counter, and the faults chosen for that request (indices in the alphabet).
// About 16 bytes an entry, where an object with its own array took ≈ 150.
import { Ints } from './path-count.ts';

export interface FrontierEntry {
  base: number;
  id: number;
  /** Alphabet indices, in canonical order. */
  chosen: number[];
}

export class Frontier {
  private readonly bases = new Ints();
  private readonly ids = new Ints();
  /** Where each entry's chosen faults start in `chosen`; they run to the next entry's start. */
  private readonly starts = new Ints();
  private readonly chosen = new Ints();

  get length(): number {
    return this.ids.length;
  }

  /** An entry whose faults are `chosen` then `next`. */
  push(base: number, id: number, chosen: readonly number[], next: number): void {
    this.bases.push(base);
    this.ids.push(id);
    this.starts.push(this.chosen.length);
    for (const c of chosen) this.chosen.push(c);
    this.chosen.push(next);
  }

  entry(k: number): FrontierEntry {
    const start = this.starts.data[k]!;
    const end = k + 1 < this.starts.length ? this.starts.data[k + 1]! : this.chosen.length;
    return { base: this.bases.data[k]!, id: this.ids.data[k]!, chosen: Array.from(this.chosen.data.subarray(start, end)) };
  }
}

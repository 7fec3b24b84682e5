// The visited states of one exploration, as 64-bit fingerprints in an open-addressing table of typed
// arrays: 12 bytes a slot, at most half full, instead of a Map of strings (≈ 150 bytes an entry). The
// states themselves are never kept; search/exhaustive/explore.ts says what a fingerprint is and how
// likely two states are to share one.
import type { Digest } from '../../core/digest.ts';

/** A state's fingerprint (world/fork.ts `fingerprint`), as two unsigned 32-bit halves. */
export type Fingerprint = Digest;

export class FingerprintTable {
  // Small at first (a power of two; it doubles when half full): a certification's job has a few states.
  private his = new Uint32Array(64);
  private los = new Uint32Array(64);
  /** The state's id, plus one (0: an empty slot). */
  private ids = new Int32Array(64);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The id stored for this fingerprint, or -1. */
  get({ hi, lo }: Fingerprint): number {
    const mask = this.ids.length - 1;
    // The digest is finalized (core/digest.ts): the low bits of one half are a good slot.
    for (let i = lo & mask; ; i = (i + 1) & mask) {
      const id = this.ids[i]!;
      if (id === 0) return -1;
      if (this.los[i] === lo && this.his[i] === hi) return id - 1;
    }
  }

  /** Store a fingerprint not in the table yet. */
  add({ hi, lo }: Fingerprint, id: number): void {
    if (2 * (this.count + 1) > this.ids.length) this.grow();
    this.place(hi, lo, id + 1);
    this.count++;
  }

  private place(hi: number, lo: number, idPlusOne: number): void {
    const mask = this.ids.length - 1;
    let i = lo & mask;
    while (this.ids[i] !== 0) i = (i + 1) & mask;
    this.his[i] = hi;
    this.los[i] = lo;
    this.ids[i] = idPlusOne;
  }

  private grow(): void {
    const { his, los, ids } = this;
    this.his = new Uint32Array(ids.length * 2);
    this.los = new Uint32Array(ids.length * 2);
    this.ids = new Int32Array(ids.length * 2);
    for (let i = 0; i < ids.length; i++) if (ids[i] !== 0) this.place(his[i]!, los[i]!, ids[i]!);
  }
}

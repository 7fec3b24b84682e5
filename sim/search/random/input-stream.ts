// The inputs `fc.sample(arb, { seed, numRuns })` would return, drawn one at a time. `fc.sample` builds
// the whole array first: a `--runs 1000000` cell held every input at once (~45 MB/s of growth) and could
// not be stopped while it was built. This draws the same sequence lazily, the way fast-check's own runner
// does (one xorshift128+ per seed, jumped before each run; the bias grows with the run index), so memory is
// flat in the number of runs and a stop flag is read between any two runs. fast-check does not export its
// lazy sampler; this follows fast-check 4.10's `toss`, and a test pins it to `fc.sample` (input-stream.test.ts).
// The package accepts any fast-check 4 (one copy with the user's, whose arbitraries it shares), so
// `inputStream` checks the first draws against `fc.sample` at run time and falls back to it if a later
// fast-check draws otherwise: the shrink phase finds the first violation by its index in fast-check's
// own sequence.
import fc from 'fast-check';
import { xorshift128plus } from 'pure-rand/generator/xorshift128plus';

/** fast-check's seed reading: an integer seed as a 32-bit int (other numbers folded in as fast-check does). */
function seed32(seed: number): number {
  const s = seed | 0;
  return seed === s ? s : s ^ ((seed - s) * 0x1_0000_0000);
}

/** fast-check's bias for run `runId`: 2 at first, growing with the decimal logarithm of the run index. */
function biasOf(runId: number): number {
  return 2 + ~~(Math.log(runId + 1) * Math.LOG10E);
}

/** The `runs` values of `arb` that `fc.sample(arb, { seed, numRuns: runs })` returns, in order, lazily. */
export function* sampleLazily<T>(arb: fc.Arbitrary<T>, seed: number, runs: number): Generator<T> {
  const rng = xorshift128plus(seed32(seed));
  for (let i = 0; i < runs; i++) {
    rng.jump();
    yield arb.generate(new fc.Random(rng), biasOf(i)).value;
  }
}

/** Draws checked against `fc.sample` before the lazy stream is trusted (cheap: three inputs). */
const PROBE_RUNS = 3;

/** The inputs of `fc.sample(arb, { seed, numRuns: runs })`, lazily where this fast-check draws as
 *  `sampleLazily` does, else `fc.sample`'s own array. */
export function inputStream<T>(arb: fc.Arbitrary<T>, seed: number, runs: number): IterableIterator<T> {
  const probe = Math.min(runs, PROBE_RUNS);
  const same = JSON.stringify([...sampleLazily(arb, seed, probe)]) === JSON.stringify(fc.sample(arb, { seed, numRuns: probe }));
  return same ? sampleLazily(arb, seed, runs) : fc.sample(arb, { seed, numRuns: runs })[Symbol.iterator]();
}

/** A stream of at most this many runs is kept (`KeptDraws`): a comparison's cells have a few hundred;
 *  a longer one (`--runs 1000000`) is drawn lazily, its memory flat. */
export const KEPT_RUNS = 1000;
/** Streams kept at once, the oldest dropped first: a comparison draws from a few shapes. */
export const KEPT_STREAMS = 32;

/**
 * The inputs of a shape's stream (`inputStream`), drawn once per thread and handed to every check
 * that draws the same stream: the cells of a comparison that share a shape and an alphabet (the full
 * matrix's 1,920 cells draw from a few streams) draw the same inputs from the same seed. Measured on
 * `compare --matrix full --quiet`, on and off alternately, twice each: 68.2 and 71.7 s CPU against
 * 76.2 and 78.2 (40 s wall against 44–45), the JSON identical outside `timing`. Inputs are immutable
 * data, shared as the mitigation finder already shares its searches' draws. Speed only: results are
 * the same with it off (`KEPT_DRAWS=off`, or `enabled`), which test/sim/search/kept-draws.test.ts checks.
 */
export class KeptDraws {
  enabled = process.env.KEPT_DRAWS !== 'off';
  private readonly kept = new Map<string, readonly unknown[]>();

  /** The stream of `arb` from `seed`, `runs` long; `key` names what `arb` draws (arbitraries.ts `shapeKey`:
   *  equal keys, equal sequences). */
  stream<T>(key: string, arb: fc.Arbitrary<T>, seed: number, runs: number): IterableIterator<T> {
    if (!this.enabled || runs > KEPT_RUNS) return inputStream(arb, seed, runs);
    const at = keptAt(key, seed, runs);
    let drawn = this.kept.get(at) as readonly T[] | undefined;
    if (drawn === undefined) {
      drawn = [...inputStream(arb, seed, runs)];
      if (this.kept.size >= KEPT_STREAMS) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(at, drawn);
    }
    return drawn[Symbol.iterator]();
  }

  /** Whether the stream is kept: another check of this thread drew it (so its runs are worth keeping:
   *  search/random/input-judge.ts `InputJudge.sampled`). */
  has(key: string, seed: number, runs: number): boolean {
    return this.kept.has(keptAt(key, seed, runs));
  }

  clear(): void {
    this.kept.clear();
  }
}

function keptAt(key: string, seed: number, runs: number): string {
  return `${seed} ${runs} ${key}`;
}

/** This thread's kept draws. */
export const keptDraws = new KeptDraws();

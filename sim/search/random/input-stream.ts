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

// The inputs `fc.sample(arb, { seed, numRuns })` would return, drawn one at a time. `fc.sample` builds
// the whole array first: a `--runs 1000000` cell held every input at once (~45 MB/s of growth) and could
// not be stopped while it was built. This draws the same sequence lazily, the way fast-check's own runner
// does (one xorshift128+ per seed, jumped before each run; the bias grows with the run index), so memory is
// flat in the number of runs and a stop flag is read between any two runs. fast-check does not export its
// lazy sampler; this follows fast-check 4.10's `toss`, and a test pins it to `fc.sample` (input-stream.test.ts)
// so that an upgrade that changes the sequence fails there, not in a report.
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

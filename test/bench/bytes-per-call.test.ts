// bench/allocations.ts `bytesPerCall`: what a function allocates per call, garbage included, from V8's
// sampling heap profiler. Checked on functions whose allocation is known: none, and an array of
// 2,000 small integers (16,000 bytes of elements: Node's V8 is built without pointer compression, 8
// bytes each; plus a header)
// that the collector frees at once.
import { describe, expect, it } from 'vitest';
import { bytesPerCall } from '../../bench/allocations.ts';

describe('bytesPerCall', () => {
  it('counts what a call allocates, the garbage the collector freed included', () => {
    let kept = 0;
    const bytes = bytesPerCall(() => {
      const a = new Array<number>(2_000).fill(1);
      kept += a.length;
    }, 20_000);
    expect(kept).toBe(40_000 * 2_000);
    expect(bytes).toBeGreaterThan(16_000 * 0.95);
    expect(bytes).toBeLessThan(16_000 * 1.1);
  });

  it('counts nothing for a call that allocates nothing', () => {
    let sum = 0;
    const bytes = bytesPerCall(() => {
      for (let i = 0; i < 100; i++) sum += i;
    }, 100_000);
    expect(sum).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(1);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAULT_VOCABULARY, type FaultName } from '../../../models/faults.ts';
import { faultPlan, workload } from '../../../sim/search/random/arbitraries.ts';
import { EventQueue } from '../../../sim/world/clock.ts';
import { enumeratePlans } from '../../fixtures/enumerate-plans.ts';
import { describePlan, firingPoint, sortPlan, type PlannedFault } from '../../../sim/core/plan.ts';
import { call, nextCalls } from '../../../sim/core/workload.ts';

function countPlans(alphabet: readonly FaultName[], maxPoint: number, depth: number): number {
  let n = 0;
  for (const _ of enumeratePlans(alphabet, maxPoint, depth)) n++;
  return n;
}

describe('event queue', () => {
  it('orders by time, then FIFO', () => {
    const q = new EventQueue<string>();
    q.push(10, 'b');
    q.push(5, 'a');
    q.push(10, 'c');
    expect([q.pop()!.item, q.pop()!.item, q.pop()!.item]).toEqual(['a', 'b', 'c']);
    expect(q.now).toBe(10);
  });
  it('lets the schedule pick among events due at the same instant, and only then', () => {
    const q = new EventQueue<string>([1, 0]);
    q.push(0, 'x');
    q.push(3, 'lonely');
    q.push(0, 'y');
    q.push(0, 'z');
    expect(q.pop()!.item).toBe('y'); // pick 1 of [x, y, z]
    expect(q.pop()!.item).toBe('x'); // pick 0 of [x, z]
    expect(q.pop()!.item).toBe('z'); // no tie: no pick used
    expect(q.pop()!.item).toBe('lonely');
  });
});

describe('fault plans', () => {
  it('sort by firing point, a fault before request n ahead of one at request n, stably', () => {
    const plan = sortPlan([
      { fault: 'http-502', at: 2 },
      { fault: 'config-reset', at: 2 },
      { fault: 'stream-cut', at: 1 },
      { fault: 'delay:1000', at: 2 },
    ]);
    expect(plan.map((f) => f.fault)).toEqual(['stream-cut', 'config-reset', 'http-502', 'delay:1000']);
    expect(describePlan(plan)).toBe(
      'stream-cut at request 1, then config-reset before request 2, then http-502 at request 2, then delay:1000 at request 2',
    );
  });
  it('sort as a stable sort by firing point does, a new array each time (random plans with many ties)', () => {
    const reference = (plan: readonly PlannedFault[]) =>
      plan
        .map((f, i) => ({ f, i }))
        .sort((a, b) => firingPoint(a.f) - firingPoint(b.f) || a.i - b.i)
        .map(({ f }) => f);
    const fault = fc.record({ fault: fc.constantFrom(...FAULT_VOCABULARY), at: fc.nat({ max: 3 }) });
    let reordered = 0;
    fc.assert(
      fc.property(fc.array(fault, { maxLength: 9 }), (plan) => {
        const sorted = sortPlan(plan);
        expect(sorted).not.toBe(plan);
        // The same objects in the same order (identity, not only equal values: ties keep theirs).
        const expected = reference(plan);
        expect(sorted.length).toBe(expected.length);
        for (let i = 0; i < expected.length; i++) expect(sorted[i]).toBe(expected[i]);
        if (sorted.some((f, i) => f !== plan[i])) reordered++;
      }),
      { seed: 11, numRuns: 600 },
    );
    expect(reordered).toBeGreaterThan(200);
  });
  it('arbitrary plans are sorted, reach their maximum length, and draw every fault of the vocabulary', () => {
    const plans = fc.sample(faultPlan({ maxFaults: 8 }), { seed: 7, numRuns: 500 });
    for (const p of plans) expect(p.map(firingPoint)).toEqual([...p.map(firingPoint)].sort((a, b) => a - b));
    expect(Math.max(...plans.map((p) => p.length))).toBe(8);
    const drawn = new Set(plans.flat().map((f) => f.fault));
    expect([...drawn].sort()).toEqual([...FAULT_VOCABULARY].sort());
  });
  it('enumerates multisets of faults up to a depth', () => {
    expect(countPlans(['http-502', 'config-reset'], 1, 2)).toBe(1 + 4 + 10);
    const plans = [...enumeratePlans(['http-502'], 2, 2)];
    expect(plans).toContainEqual([
      { fault: 'http-502', at: 0 },
      { fault: 'http-502', at: 0 },
    ]);
    expect(new Set(plans.map((p) => JSON.stringify(p))).size).toBe(plans.length);
  });
});

describe('workloads', () => {
  it('issue sequential calls one at a time and overlapping ones up to three in flight', () => {
    const w = [call(), call(false, true), call(true, true), call(false, true), call()];
    expect(nextCalls(w, 0, new Set())).toEqual([0, 1, 2]);
    expect(nextCalls(w, 3, new Set([1]))).toEqual([3]);
    expect(nextCalls(w, 4, new Set([0, 1, 2]))).toEqual([]);
    expect(nextCalls(w, 4, new Set([0, 1, 2, 3]))).toEqual([4]);
  });
  it('arbitrary workloads have between min and max calls and shrink toward one plain call', () => {
    const ws = fc.sample(workload({ minCalls: 2, maxCalls: 4, overlap: true }), { seed: 3, numRuns: 200 });
    expect(Math.min(...ws.map((w) => w.length))).toBe(2);
    expect(Math.max(...ws.map((w) => w.length))).toBe(4);
    const r = fc.check(
      fc.property(workload({ overlap: true }), (w) => !w.some((s) => s.progress)),
      { seed: 1 },
    );
    expect(r.counterexample![0]).toEqual([call(true)]);
  });
});

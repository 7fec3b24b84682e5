// The one check runner (search/random/check-runner.ts): a synchronous runner is checked without a
// promise anywhere, an asynchronous one through fc.asyncProperty, and the same runs give the same
// tally and the same shrunk counterexamples either way.
import { describe, expect, it } from 'vitest';
import { ALPHABET_000, VULNERABLE_000 } from '../../core/cells.ts';
import { PROPERTIES } from '../../properties/properties.ts';
import { randomCheck, type CheckInput, type RandomCheckOptions } from '../../search/random/check-runner.ts';
import { worldRunner } from '../../search/random/check.ts';

const options: RandomCheckOptions = { properties: PROPERTIES, shape: { plan: { faults: ALPHABET_000 } }, seed: 1, runs: 80 };
const sync = worldRunner(VULNERABLE_000);

describe('one check runner for a synchronous and an asynchronous tier', () => {
  const direct = randomCheck(sync, options);

  it('checks a synchronous runner synchronously (the model tier pays for no promise)', () => {
    expect(direct).not.toBeInstanceOf(Promise);
    expect(direct.counterexamples.size).toBeGreaterThan(0); // seed 000's vulnerable cell: something to shrink
  });

  it('gives an asynchronous runner of the same runs the same tally and counterexamples', async () => {
    const promised = randomCheck({ ...sync, run: (i: CheckInput) => Promise.resolve(sync.run(i)) }, options);
    expect(promised).toBeInstanceOf(Promise);
    const later = await promised;
    expect(later.tally.stats).toEqual(direct.tally.stats);
    expect(later.tally.outcomes).toEqual(direct.tally.outcomes);
    expect([...later.counterexamples]).toEqual([...direct.counterexamples]);
  });

  it('runs the fault-free reference once per workload, and each input once', () => {
    const runs: string[] = [];
    const counted = { ...sync, run: (i: CheckInput) => (runs.push(JSON.stringify(i)), sync.run(i)) };
    randomCheck(counted, options);
    const times = new Map<string, number>();
    for (const r of runs) times.set(r, (times.get(r) ?? 0) + 1);
    // Only a fault-free input runs twice: once as its workload's reference, once as a drawn input.
    for (const [r, n] of times) expect(n, r).toBeLessThanOrEqual(r.startsWith('{"plan":[],') && r.endsWith('"schedule":[]}') ? 2 : 1);
    expect(runs.length).toBeGreaterThan(options.runs); // the second phase asked for more than the sample
  });

  it('keeps the history in a counterexample only when the runner cannot recompute it', () => {
    for (const ce of direct.counterexamples.values()) expect(ce.history).toBeUndefined();
    const real = randomCheck({ run: sync.run }, options);
    for (const ce of real.counterexamples.values()) {
      expect(ce.history).toEqual(sync.run({ plan: ce.faults, workload: ce.workload, schedule: ce.schedule }).entries);
    }
  });

  it('drops the schedule for a runner that has none', () => {
    const seen: number[][] = [];
    randomCheck({ run: (i: CheckInput) => (seen.push(i.schedule), sync.run(i)), ignoresSchedule: true }, options);
    expect(seen.every((s) => s.length === 0)).toBe(true);
  });
});

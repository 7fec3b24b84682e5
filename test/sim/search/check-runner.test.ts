// The one check runner (search/random/check-runner.ts): a synchronous runner is checked without a
// promise anywhere, an asynchronous one through fc.asyncProperty, and the same runs give the same
// tally and the same shrunk counterexamples either way.
import { describe, expect, it } from 'vitest';
import { ALPHABET_000, VULNERABLE_000 } from '../../../sim/core/cells.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { randomCheck, type CheckInput, type RandomCheckConfig } from '../../../sim/search/random/check-runner.ts';
import type { InputShape } from '../../../sim/search/random/arbitraries.ts';
import { worldRunner } from '../../../sim/search/random/check.ts';
import { RunStore } from '../../../sim/search/run-store.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';

const options: RandomCheckConfig = { properties: PROPERTIES, seed: 1, runs: 80 };
const shape: InputShape = { plan: { faults: ALPHABET_000 } };
const sync = worldRunner(VULNERABLE_000, DEFAULT_WORLD);

describe('one check runner for a synchronous and an asynchronous tier', () => {
  const direct = randomCheck(sync, options, shape);

  it('checks a synchronous runner synchronously (the model tier pays for no promise)', () => {
    expect(direct).not.toBeInstanceOf(Promise);
    expect(direct.counterexamples.size).toBeGreaterThan(0); // record 000's vulnerable cell: something to shrink
  });

  it('gives an asynchronous runner of the same runs the same tally and counterexamples', async () => {
    // The asynchronous tier judges from histories; the model tier here judged each run as it went.
    const promised = randomCheck({ run: (i: CheckInput) => Promise.resolve(sync.run(i)), replayable: true }, options, shape);
    expect(promised).toBeInstanceOf(Promise);
    const later = await promised;
    expect(later.tally.stats.toStats()).toEqual(direct.tally.stats.toStats());
    expect(later.tally.outcomes).toEqual(direct.tally.outcomes);
    expect([...later.counterexamples]).toEqual([...direct.counterexamples]);
  });

  it('runs the fault-free reference once per workload, and each input once, but for its counterexamples', () => {
    const runs: string[] = [];
    const { store: _s, ...unstored } = sync;
    const counted = {
      ...unstored,
      store: new RunStore().scope(VULNERABLE_000, DEFAULT_WORLD)!,
      run: (i: CheckInput) => (runs.push(JSON.stringify(i)), sync.run(i)),
      runInto: (i: CheckInput, open: Parameters<typeof sync.runInto>[1]) => (runs.push(JSON.stringify(i)), sync.runInto(i, open)),
    };
    const r = randomCheck(counted, options, shape);
    const times = new Map<string, number>();
    for (const r of runs) times.set(r, (times.get(r) ?? 0) + 1);
    // A fault-free input runs once more as its workload's reference; a counterexample's once more to
    // say why it fails (the store keeps verdicts, not their reasons).
    const again = new Map<string, number>();
    for (const ce of r.counterexamples.values()) {
      const key = JSON.stringify({ plan: ce.faults, workload: ce.workload, schedule: ce.schedule });
      again.set(key, (again.get(key) ?? 0) + 1);
    }
    for (const [r, n] of times) {
      const faultFree = r.startsWith('{"plan":[],') && r.endsWith('"schedule":[]}');
      expect(n, r).toBeLessThanOrEqual(1 + (faultFree ? 1 : 0) + (again.get(r) ?? 0));
    }
    expect(runs.length).toBeGreaterThan(options.runs); // the second phase asked for more than the sample
  });

  it('keeps no history of a sampled run: only a counterexample is run again, recorded, and only where it must carry it', () => {
    const recorded: CheckInput[] = [];
    const judgedFree: CheckInput[] = [];
    const counted = {
      ...sync,
      // A store of its own: the thread's has this check's sampled runs already (\`direct\`'s).
      store: new RunStore().scope(VULNERABLE_000, DEFAULT_WORLD)!,
      run: (i: CheckInput) => (recorded.push(i), sync.run(i)),
      runInto: (i: CheckInput, open: Parameters<typeof sync.runInto>[1]) => (judgedFree.push(i), sync.runInto(i, open)),
    };
    const r = randomCheck(counted, options, shape);
    expect(judgedFree.length).toBeGreaterThan(options.runs); // every sampled run, the references, the shrink
    expect(recorded).toEqual([]); // the model world's counterexamples replay from their inputs
    expect([...r.counterexamples]).toEqual([...direct.counterexamples]);
    expect(r.tally.stats.toStats()).toEqual(direct.tally.stats.toStats());
  });

  it('keeps the history in a counterexample only when the runner cannot recompute it', () => {
    for (const ce of direct.counterexamples.values()) expect(ce.history).toBeUndefined();
    const real = randomCheck({ run: sync.run }, options, shape);
    for (const ce of real.counterexamples.values()) {
      expect(ce.history).toEqual(sync.run({ plan: ce.faults, workload: ce.workload, schedule: ce.schedule }).entries);
    }
  });

  it('drops the schedule for a runner that has none', () => {
    const seen: number[][] = [];
    randomCheck({ run: (i: CheckInput) => (seen.push(i.schedule), sync.run(i)), ignoresSchedule: true }, options, shape);
    expect(seen.every((s) => s.length === 0)).toBe(true);
  });
});

// Heap after 10k and after 1M simulated sessions, each run judged by the oracles as `check` does,
// over a fixed set of random inputs: what grows between the two is a leak (or a cache without a
// bound). Needs `node --expose-gc` (npm run bench passes it).
import fc from 'fast-check';
import { judge } from '../properties/judge.ts';
import { referenceOf, type Reference } from '../properties/outcomes.ts';
import { inputs } from '../sim/search/random/arbitraries.ts';
import { VULNERABLE_000 } from '../sim/core/cells.ts';
import { DEFAULT_WORLD, runWorld } from '../sim/world/world.ts';
import { note, round } from './measure.ts';

export interface MemoryFigures {
  sessions: number;
  heapAfter10kMB: number;
  heapAfterAllMB: number;
  heapGrowthMB: number;
  gc: boolean;
}

const heapMB = () => {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1e6;
};

export function measureMemory(quick: boolean): MemoryFigures {
  const total = quick ? 100_000 : 1_000_000;
  const sample = fc.sample(inputs({ workload: { overlap: true } }), { seed: 7, numRuns: 1000 });
  const references = new Map<string, Reference>();
  const session = (i: number) => {
    const [plan, workload, schedule] = sample[i % sample.length]!;
    const key = JSON.stringify(workload);
    let reference = references.get(key);
    if (!reference)
      references.set(key, (reference = referenceOf(runWorld({ combination: VULNERABLE_000, workload, plan: [] }, DEFAULT_WORLD))));
    judge(runWorld({ combination: VULNERABLE_000, workload, plan, schedule }, DEFAULT_WORLD), reference);
  };
  for (let i = 0; i < 10_000; i++) session(i);
  const after10k = heapMB();
  for (let i = 10_000; i < total; i++) {
    if (i % 50_000 === 0) note(`memory: ${i.toLocaleString('en-US')}/${total.toLocaleString('en-US')} sessions`);
    session(i);
  }
  const afterAll = heapMB();
  return {
    sessions: total,
    heapAfter10kMB: round(after10k, 1),
    heapAfterAllMB: round(afterAll, 1),
    heapGrowthMB: round(afterAll - after10k, 1),
    gc: typeof (globalThis as { gc?: unknown }).gc === 'function',
  };
}

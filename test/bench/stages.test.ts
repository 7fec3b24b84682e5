// The stage profile's two parts (bench/stages.ts): the world-start probe counts every run and fork
// of this thread while set, and nothing once unset, without changing a run's history; and a stack
// is put in its most specific stage (a pair search replays and searches inside a finding's
// annotation: it is the pair search's), wherever the file is (the sources or dist/).
import { afterEach, describe, expect, it } from 'vitest';
import { GC, OTHER, STAGES, stageOf } from '../../bench/stage-table.ts';
import { ForkableWorld } from '../../sim/world/fork.ts';
import { runCensus } from '../../sim/world/run-census.ts';
import { DEFAULT_WORLD, runWorld } from '../../sim/world/world.ts';
import { FIXED_INPUT } from '../fixtures/print-history.ts';

afterEach(() => {
  runCensus.probe = null;
});

describe('the world-start probe', () => {
  it('counts each run from an input and each fork, and changes no history', () => {
    const seen: boolean[] = [];
    const unprobed = runWorld(FIXED_INPUT, DEFAULT_WORLD);
    runCensus.probe = (fork) => seen.push(fork);
    expect(runWorld(FIXED_INPUT, DEFAULT_WORLD)).toEqual(unprobed);
    const w = new ForkableWorld({ ...FIXED_INPUT, plan: [] }, DEFAULT_WORLD);
    expect(w.startPaused([])).toBe(false);
    w.fork([]);
    w.fork([]);
    expect(seen).toEqual([false, false, true, true]);
    runCensus.probe = null;
    runWorld(FIXED_INPUT, DEFAULT_WORLD);
    expect(seen).toHaveLength(4);
  });
});

describe('stageOf', () => {
  const at = (functionName: string, file: string) => ({ functionName, url: `file:///x/dist/${file}.js` });
  it('takes the most specific stage on the stack, in any frame order', () => {
    const pair = [
      at('annotate', 'sim/compare/annotator'),
      at('pairSearch', 'sim/compare/mitigation-pairs'),
      at('replaysOf', 'sim/compare/mitigations'),
    ];
    expect(stageOf(pair)).toBe('finder: pair searches');
    expect(stageOf([...pair].reverse())).toBe('finder: pair searches');
    const shrink = [
      at('checkCombination', 'sim/search/random/check'),
      at('randomCheck', 'sim/search/random/check-runner'),
      at('shrink', 'sim/search/random/check-runner'),
    ];
    expect(stageOf(shrink)).toBe('shrinking');
    expect(stageOf(shrink.slice(0, 2))).toBe('cells: random runs');
  });
  it('needs the function in its own file, from the sources or dist/', () => {
    expect(stageOf([{ functionName: 'certify', url: '/y/sim/search/certify.ts' }])).toBe('certification (exhaustive, one fault fewer)');
    expect(stageOf([at('shrink', 'node_modules/fast-check/lib/check')])).toBe(OTHER);
    expect(stageOf([])).toBe(OTHER);
  });
  it('names every stage once, apart from the two catch-alls', () => {
    const names = STAGES.map((s) => s.stage);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain(OTHER);
    expect(names).not.toContain(GC);
  });
});

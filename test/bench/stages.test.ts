// The stage profile's two parts (bench/stages.ts): the world-start probe counts every run and fork
// of this thread while set, and nothing once unset, without changing a run's history; and a stack
// is put in its most specific stage (a pair search replays and searches inside a finding's
// annotation: it is the pair search's), wherever the file is (the sources or dist/).
import { afterEach, describe, expect, it } from 'vitest';
import { renderBench } from '../../bench/render.ts';
import { GC, OTHER, STAGES, stageOf } from '../../bench/stage-table.ts';
import { census, type StageProfile } from '../../bench/stages.ts';
import { seedMatrix } from '../../sim/compare/matrix.ts';
import { runConfig } from '../../sim/plugins/run-config.ts';
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
  it('gives the recommendation and the cells’ runs offered to the finder stages of their own', () => {
    // Both were "start-up, threads, module loading, other": 0.57 and 0.51 s of a full matrix's profile.
    expect(
      stageOf([
        at('runComparison', 'sim/compare/compare'),
        at('recommend', 'sim/compare/recommendation'),
        at('replaysOf', 'sim/compare/mitigations'),
      ]),
    ).toBe('recommendation (its replays and ranking)');
    expect(
      stageOf([at('runCell', 'sim/compare/run-cell'), at('onSampled', 'sim/compare/cell-scheduler'), at('offer', 'sim/compare/annotator')]),
    ).toBe('finder: the cells’ runs offered to its searches');
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

describe('the stage table', () => {
  it('gives each stage its CPU, share, runs, forks and runs per finding, under the command it profiled', () => {
    const profile: StageProfile = {
      matrix: 'full',
      cpuSeconds: 60,
      threads: 3,
      findings: 100,
      silentFindings: 40,
      runs: 1234,
      rows: [
        { stage: 'certification (exhaustive, one fault fewer)', cpuSeconds: 6, share: 10, runs: 200, forks: 5000, runsPerFinding: 2 },
        { stage: GC, cpuSeconds: 3, share: 5, runs: null, forks: null, runsPerFinding: null },
      ],
    };
    const machine = { node: 'v20', cpus: 2, loadBefore: [1], loadAfter: [1], note: 'shared', quick: false };
    const out = renderBench({ machine, stages: { default: { ...profile, matrix: 'records' }, full: profile }, targets: {}, timing: {} });
    expect(out).toContain('stages — mcp-faultsim compare --quiet: 60 s CPU over 3 threads');
    expect(out).toContain('stages — mcp-faultsim compare --matrix full --quiet: 60 s CPU over 3 threads');
    expect(out).toContain('1,234 for 100 findings (40 silent)');
    expect(out).toMatch(/certification \(exhaustive, one fault fewer\)\s+6\.00 s\s+10%\s+200\s+5,000\s+2/);
    expect(out).toMatch(/garbage collection \(any stage\)\s+3\.00 s\s+5%\s*\n/);
  });
});

describe('the census', () => {
  it('counts a comparison’s runs by the stage that started them, and unsets its probe', async () => {
    const cells = seedMatrix()
      .slice(0, 2)
      .map((c, index) => ({ ...c, index }));
    const { counts, findings } = await census(cells, 'records', runConfig({ runs: 30 }));
    expect(runCensus.probe).toBeNull();
    const runs = (stage: string) => counts.get(stage)?.runs ?? 0;
    // Every sampled run of both cells, plus the references of the workloads they drew.
    expect(runs('cells: random runs')).toBeGreaterThanOrEqual(60);
    expect(runs('cells: fault-free runs')).toBeGreaterThan(0);
    expect(findings).toBeGreaterThan(0);
    expect(runs('shrinking')).toBeGreaterThan(0);
    expect(counts.get('certification (exhaustive, one fault fewer)')?.forks ?? 0).toBeGreaterThan(0);
    expect(counts.has(OTHER)).toBe(false);
  });

  it('counts what a comparison in a fresh process runs: the same again after this thread stored runs', async () => {
    const cells = seedMatrix()
      .slice(0, 2)
      .map((c, index) => ({ ...c, index }));
    const config = runConfig({ runs: 30 });
    const first = await census(cells, 'records', config);
    const again = await census(cells, 'records', config);
    expect(first.counts.get('cells: random runs')?.runs ?? 0).toBeGreaterThanOrEqual(60);
    expect(again.counts).toEqual(first.counts);
  });
});

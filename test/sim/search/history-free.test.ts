// A random run judged as it goes (search/random/check-runner.ts with the world's `runInto`,
// properties/judge.ts `RunJudge`) says exactly what the same run's history says when judged whole:
// the same outcomes, verdicts (with their reasons), vacuity stats and coverage, on every seed cell.
import { describe, expect, it } from 'vitest';
import { SEED_CELLS } from '../../../sim/core/cells.ts';
import { call } from '../../../sim/core/workload.ts';
import { PolicyError } from '../../../models/additions.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { inputs, workload as anyWorkload } from '../../../sim/search/random/arbitraries.ts';
import fc from 'fast-check';
import { InputJudge, type CheckInput } from '../../../sim/search/random/check-runner.ts';
import { keyOf, workloadKey } from '../../../sim/search/random/run-keys.ts';
import { worldRunner } from '../../../sim/search/random/check.ts';
import { sampleLazily } from '../../../sim/search/random/input-stream.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';

describe('history-free judging', () => {
  it('gives every run of every seed cell the judgement, stats and coverage its history gives', () => {
    let violations = 0;
    let runs = 0;
    for (const cell of SEED_CELLS) {
      const runner = worldRunner(cell.combination, DEFAULT_WORLD);
      const free = new InputJudge(runner, PROPERTIES);
      const recorded = new InputJudge({ run: runner.run, replayable: true }, PROPERTIES);
      expect(free.historyFree).toBe(true);
      expect(recorded.historyFree).toBe(false);
      for (const [plan, workload, schedule] of sampleLazily(inputs({}), 7, 25)) {
        const input = { plan, workload, schedule };
        const a = free.judged(input, false) as Awaited<ReturnType<typeof free.judged>>;
        const b = recorded.judged(input, false) as Awaited<ReturnType<typeof recorded.judged>>;
        expect(a.history).toBeUndefined();
        expect(b.history).toBeDefined();
        expect(a.judgement).toEqual(b.judgement);
        expect(a.stats).toEqual(b.stats);
        expect(a.coverage).toEqual(b.coverage);
        runs++;
        if (Object.values(a.judgement.verdicts).some((v) => !v.holds)) violations++;
      }
    }
    // Reached: violations among them, so that verdicts with reasons were compared, not only holds.
    expect(runs).toBe(SEED_CELLS.length * 25);
    expect(violations).toBeGreaterThan(10);
  });

  it('keeps a reference by a key that tells workloads apart exactly as their JSON does, and falls back to the JSON', () => {
    const shapes = [{}, { overlap: true, lists: true }, { idempotent: true, overlap: true }, { progress: 'always' as const, minCalls: 0 }];
    const byKey = new Map<string, string>();
    const byJson = new Map<string, string>();
    for (const shape of shapes) {
      for (const w of fc.sample(anyWorkload(shape), { seed: 3, numRuns: 500 })) {
        const key = workloadKey(w);
        const json = JSON.stringify(w);
        expect(byKey.get(key) ?? json).toBe(json);
        expect(byJson.get(json) ?? key).toBe(key);
        byKey.set(key, json);
        byJson.set(json, key);
      }
    }
    // Reached: many distinct workloads, with lists, overlaps and idempotent calls among them.
    expect(byKey.size).toBeGreaterThan(300);
    expect([...byJson.keys()].filter((j) => j.includes('tools/list')).length).toBeGreaterThan(20);
    expect([...byJson.keys()].filter((j) => j.includes('"overlap":true')).length).toBeGreaterThan(20);
    expect([...byJson.keys()].filter((j) => j.includes('idempotent')).length).toBeGreaterThan(20);
    // Anything unusual is keyed by its JSON, which no usual workload's key can be.
    const odd = [{ ...call(), progress: 1 }] as never;
    expect(workloadKey(odd)).toBe(JSON.stringify(odd));
    expect(workloadKey([call(), { method: 'tools/other', progress: false, overlap: false }] as never)).toMatch(/^\[/);
    expect(workloadKey([])).toBe('');
  });

  it('memoizes runs by a key that tells inputs apart exactly as their JSON does', () => {
    const byKey = new Map<string, string>();
    const byJson = new Map<string, string>();
    // Small alphabets and indices, so that many inputs meet again; a fault name with the key's separators in it.
    const shape = { plan: { faults: ['http-502', 'config-reset', 'x,1|y'], maxPoint: 3, maxFaults: 3 }, workload: { maxCalls: 2 } };
    let again = 0;
    for (const [plan, workload, schedule] of fc.sample(inputs(shape), { seed: 5, numRuns: 3000 })) {
      const input = { plan, workload, schedule };
      const key = keyOf(input);
      const json = JSON.stringify([plan, workload, schedule]);
      if (byJson.has(json)) again++;
      expect(byKey.get(key) ?? json).toBe(json);
      expect(byJson.get(json) ?? key).toBe(key);
      byKey.set(key, json);
      byJson.set(json, key);
    }
    expect(byKey.size).toBeGreaterThan(1000);
    expect(again).toBeGreaterThan(100);
    const odd = { plan: [{ fault: 'http-502', at: '1' }], workload: [call()], schedule: [] } as never;
    expect(keyOf(odd)).toBe(JSON.stringify([[{ fault: 'http-502', at: '1' }], [call()], []]));
  });

  it('runs a run that fails mid-way again, recorded: the error is the recorded run’s, with its history', () => {
    const runner = worldRunner(SEED_CELLS[0]!.combination, DEFAULT_WORLD);
    const failing = {
      ...runner,
      runInto: () => {
        throw new Error('a policy failed mid-run');
      },
      run: (i: CheckInput) => {
        const e = new PolicyError('server.reinit=broken', 'it threw', 'threw');
        e.history = runner.run(i);
        throw e;
      },
      record: (i: CheckInput) => failing.run(i),
    };
    const judge = new InputJudge(failing, PROPERTIES);
    const input: CheckInput = { plan: [], workload: [call()], schedule: [] };
    let caught: unknown;
    try {
      judge.judged(input, false);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(PolicyError);
    expect((caught as PolicyError).history).toBeDefined();
  });
});

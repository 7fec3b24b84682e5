// Coverage is one type from the world to the reports (core/reach.ts): a run's history carries the
// Reach its machines made, a sample's is their union, and only the report rates it against the
// statecharts (world/coverage.ts) or unions rated reports (a comparison over cells).
import { describe, expect, it } from 'vitest';
import { historyJson } from '../../fixtures/history-json.ts';
import { coverageSharer, emptyReach, union, unionCoverage } from '../../../sim/core/reach.ts';
import { VULNERABLE_000 } from '../../../sim/core/cells.ts';
import { call } from '../../../sim/core/workload.ts';
import { coverageReport } from '../../../sim/world/coverage.ts';
import { runWorld } from '../../../sim/world/world.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';

const input = (plan: { fault: string; at: number }[]) => ({ combination: VULNERABLE_000, workload: [call()], plan });

describe('Reach', () => {
  const quiet = runWorld(input([]), DEFAULT_WORLD);
  const faulty = runWorld(
    input([
      { fault: 'config-reset', at: 0 },
      { fault: 'http-502', at: 2 },
    ]),
    DEFAULT_WORLD,
  );

  it('a run carries its own Reach, and the union holds what either reached', () => {
    expect(quiet.coverage!.client.states.has('ready')).toBe(true);
    expect(quiet.coverage!.client.states.has('reconnecting.initializing')).toBe(false);
    expect(faulty.coverage!.client.states.has('reconnecting.initializing')).toBe(true);
    const both = union(quiet.coverage!, faulty.coverage!);
    const either = new Set([...quiet.coverage!.client.states, ...faulty.coverage!.client.states]);
    expect([...both.client.states].sort()).toEqual([...either].sort());
    expect(union()).toEqual(emptyReach());
  });

  it('serializes in a history as sorted lists', () => {
    const json = JSON.parse(historyJson(faulty));
    expect(json.coverage.client.states).toEqual([...faulty.coverage!.client.states].sort());
  });

  it('rated reports union like the reach they came from', () => {
    const rated = unionCoverage([coverageReport(quiet.coverage!), coverageReport(faulty.coverage!)]);
    expect(rated).toEqual(coverageReport(union(quiet.coverage!, faulty.coverage!)));
    expect(unionCoverage([[], coverageReport(quiet.coverage!)])).toEqual(coverageReport(quiet.coverage!));
  });

  it('a comparison keeps one object per distinct report, equal to each it stands for', () => {
    // As a cell thread's results arrive: structured clones, equal reports as distinct objects.
    const reports = [quiet, faulty, quiet, faulty, quiet].map((r) => structuredClone(coverageReport(r.coverage!)));
    const share = coverageSharer();
    const kept = reports.map(share);
    for (const [i, k] of kept.entries()) expect(k).toEqual(reports[i]);
    expect(kept[2]).toBe(kept[0]);
    expect(kept[3]).toBe(kept[1]);
    expect(kept[1]).not.toBe(kept[0]);
    expect(new Set(kept).size).toBe(2);
  });
});

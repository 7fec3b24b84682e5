// A sink that says which entry kinds it reads (EntrySink.reads) is written only those the world
// skips building for it, never fewer: what it does read arrives exactly as in the history.
import { describe, expect, it } from 'vitest';
import { SEED_CELLS } from '../../../sim/core/cells.ts';
import type { HistoryEntry } from '../../../sim/core/history.ts';
import { inputs } from '../../../sim/search/random/arbitraries.ts';
import { sampleLazily } from '../../../sim/search/random/input-stream.ts';
import { runWorldInto } from '../../../sim/world/unrecorded.ts';
import { runWorld } from '../../../sim/world/world.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';

type Kind = HistoryEntry['kind'];

function sinkReading(reads: readonly Kind[]) {
  const got: HistoryEntry[] = [];
  return { got, sink: { reads: new Set(reads), push: (e: HistoryEntry) => got.push(e) } };
}

describe('entry sinks', () => {
  it('get every entry of the kinds they read, in the history’s order, and none of the kinds the world can skip', () => {
    const skippable: Kind[] = ['request', 'response', 'deliver', 'state', 'client', 'server'];
    let skipped = 0;
    for (const cell of SEED_CELLS.slice(0, 6)) {
      for (const [plan, workload, schedule] of sampleLazily(inputs({}), 5, 4)) {
        const input = { combination: cell.combination, plan, workload, schedule };
        const history = runWorld(input, DEFAULT_WORLD);
        for (const reads of [
          ['invoke', 'end'],
          ['state', 'server'],
          ['request', 'response', 'deliver', 'client'],
        ] as Kind[][]) {
          const { got, sink } = sinkReading(reads);
          runWorldInto(input, sink, DEFAULT_WORLD);
          const kept = history.entries.filter((e) => reads.includes(e.kind) || !skippable.includes(e.kind));
          expect(got).toEqual(kept);
          skipped += history.entries.length - got.length;
        }
        const all: HistoryEntry[] = [];
        runWorldInto(input, all, DEFAULT_WORLD);
        expect(all).toEqual(history.entries);
      }
    }
    expect(skipped).toBeGreaterThan(100);
  });
});

// A model cell's runner (`checkCell`): `check` of its combination, with the flags of its first runs
// and the knobs each read, for the mitigation finder (compare/mitigation-runs.ts), and the runs of
// the comparison's other cells to replay where they read only knobs on which the two agree
// (search/random/world-runner.ts).
import { check, RunReplays } from '../search/random/check.ts';
import type { CheckResult } from '../search/random/result.ts';
import type { CellRunner, RunSettings } from './compare.ts';
import { flagsOf, searchRuns } from './mitigation-runs.ts';

/** A cell's result as a runner returns it: with the flags of its first runs (the mitigation finder's
 *  search of this combination, when it draws the same inputs) and the knobs each of them read
 *  (search/random/read-set.ts; the finder's memo, compare/mitigation-memo.ts), which the reports do not carry. */
export type RunnerResult = CheckResult & { sampled?: Uint8Array; sampledReads?: Uint16Array };

/** The runs of this thread's comparison, for its cells to replay (search/random/world-runner.ts): one
 *  comparison at a time, told apart by its properties and world (the objects, and the rest's values). */
let replays: { key: string; runs: RunReplays } | null = null;
const ids = new WeakMap<object, number>();
let nextId = 0;
function idOf(o: object): number {
  let id = ids.get(o);
  if (id === undefined) ids.set(o, (id = nextId++));
  return id;
}

export function replaysFor(s: Pick<RunSettings, 'properties' | 'world'>): RunReplays {
  const world = Object.entries(s.world ?? {}).map(([k, v]) => [k, typeof v === 'object' && v !== null ? idOf(v) : v]);
  const key = JSON.stringify([s.properties.map(idOf), world]);
  if (replays?.key !== key) replays = { key, runs: new RunReplays() };
  return replays.runs;
}

export const checkCell: CellRunner = (cell, s) => {
  const sampled = new Uint8Array(searchRuns(s.runs));
  const sampledReads = new Uint16Array(sampled.length);
  let i = 0;
  const result: RunnerResult = check(cell.combination, {
    faults: cell.faults,
    seed: s.seed,
    runs: s.runs,
    shape: cell.shape,
    properties: s.properties,
    ...(s.world ? { world: s.world } : {}),
    ...(s.onProgress ? { onProgress: s.onProgress } : {}),
    replays: replaysFor(s),
    onSample: (j, reads) => {
      if (i < sampled.length) {
        sampled[i] = flagsOf(j.judgement);
        sampledReads[i] = reads;
      }
      i++;
    },
  });
  result.sampled = sampled;
  result.sampledReads = sampledReads;
  return result;
};

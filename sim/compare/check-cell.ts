// A model cell's runner (`checkCell`): `check` of its combination, with the flags of its first runs
// and the knobs each read, for the mitigation finder's runs (compare/mitigation-runs.ts `rememberRuns`).
import { checkCombination } from '../search/random/check.ts';
import type { CheckResult } from '../search/random/result.ts';
import type { CellRunner } from './cell-runner.ts';
import { flagsOf, searchRuns } from './mitigation-runs.ts';

/** A cell's result as a runner returns it: with the flags of its first runs (the mitigation finder's
 *  search of this combination, when it draws the same inputs) and the knobs each of them read
 *  (world/knob-reads.ts; kept in the run store, compare/mitigation-runs.ts), which the reports do not carry. */
export type RunnerResult = CheckResult & { sampled?: Uint8Array; sampledReads?: Uint16Array };

export const checkCell: CellRunner = (cell, config, onProgress) => {
  const sampled = new Uint8Array(searchRuns(config.runs));
  const sampledReads = new Uint16Array(sampled.length);
  let i = 0;
  const result: RunnerResult = checkCombination(cell.combination, config, cell, {
    ...(onProgress ? { onProgress } : {}),
    onSample: (j) => {
      if (i < sampled.length) {
        sampled[i] = flagsOf(j.judgement);
        sampledReads[i] = j.reads;
      }
      i++;
    },
  });
  result.sampled = sampled;
  result.sampledReads = sampledReads;
  return result;
};

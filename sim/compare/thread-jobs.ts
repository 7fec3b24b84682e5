// A comparison's jobs as a pool thread runs them (search/pool/): a cell's check, posting progress as
// its runs finish and stopping once the comparison's stop flag is set, or one of the mitigation
// finder's searches. A thread's searches of one comparison share its judges (a reference per
// workload) and draws, kept per config. Results are plain data; a PolicyError crosses as its fields.
import type { RunConfig } from '../plugins/run-config.ts';
import { JobStopped, type JobContext, type JobKind } from '../search/pool/pool.ts';
import type { CheckResult } from '../search/random/result.ts';
import { checkCell } from './check-cell.ts';
import type { MatrixCell } from './matrix.ts';
import { runSearch } from './mitigation-runs.ts';
import type { SearchSpec, Searched } from './mitigation-searches.ts';

/** A cell to check, or a search to run (`sampled`: its runs' flags, from a cell). */
export type CompareJob = { cell: MatrixCell } | { search: SearchSpec; sampled?: Uint8Array };

export function compareOnThread(job: CompareJob, config: RunConfig, ctx: JobContext): CheckResult | Searched {
  if ('search' in job) {
    const { combination, faults, shape } = job.search;
    const x = { config, faults, shape, judges: ctx.kept('judges', () => new Map()), draws: ctx.kept('draws', () => new Map()) };
    return runSearch(combination, x, job.sampled);
  }
  return checkCell(job.cell, config, (done, total) => {
    if (ctx.shouldStop?.()) throw new JobStopped();
    ctx.progress(done, total);
  }) as CheckResult;
}

/** The job kind a comparison's threads run. */
export const COMPARE_JOBS: JobKind = { module: import.meta.url, name: 'compareOnThread' };

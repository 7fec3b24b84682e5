// The exploration loop the profile samples (`npm run bench:profile -- explore [DEPTH]`): every seed
// cell's exhaustive jobs to DEPTH (default 4), in this thread, one after another — what each worker
// of bench/exhaustive.ts's pool runs.
import { SEED_CELLS } from '../sim/core/cells.ts';
import { cellOptions, jobsFor } from '../sim/search/exhaustive/exhaustive.ts';
import { exploreJob } from '../sim/search/exhaustive/explore.ts';
import { DEFAULT_CONFIG } from '../sim/plugins/run-config.ts';

const depth = Number(process.argv[2] ?? 4);
let states = 0;
for (const cell of SEED_CELLS)
  for (const job of jobsFor(cell.combination, cellOptions(cell, depth))) states += exploreJob(job, DEFAULT_CONFIG).states;
process.stdout.write(`explored ${states.toLocaleString('en-US')} states (the seed cells, depth ${depth})\n`);

// The options `explore` and `check --depth` share (how deep, on which workloads, on how many
// cores), and the exhaustive search they run from them.
import type { Combination } from '../../models/policies.ts';
import { sequentialWorkloads, DEFAULT_EXPLORE_CALLS, type Exploration } from '../search/exhaustive/exhaustive.ts';
import { defaultWorkers, exploreInParallel } from '../search/exhaustive/parallel.ts';
import { intOption, stringOption, type OptionSpec, type Parsed } from './args.ts';
import { parseFaults, parseProperty } from './common-options.ts';
import type { Registry } from '../plugins/loaded.ts';
import { runConfig } from '../plugins/run-config.ts';
import { UsageError } from './errors.ts';
import { progressBar } from './progress.ts';

export const EXHAUSTIVE_OPTIONS: Record<string, OptionSpec> = {
  depth: { value: true, arg: 'K', help: 'explore every plan of up to K faults exhaustively' },
  calls: {
    value: true,
    arg: 'N',
    help: `exhaustive workloads: every sequential workload of 1..N calls (default ${DEFAULT_EXPLORE_CALLS})`,
  },
  progress: { value: true, arg: 'P', help: "exhaustive workloads' calls ask for progress: any (every mix; default), always, never" },
  workers: {
    value: true,
    arg: 'N',
    help: `worker threads for the exhaustive search (default: every core, ${defaultWorkers()} here); same result`,
  },
  'max-states': { value: true, arg: 'N', help: 'stop each workload after N distinct states, reporting the depth finished' },
};

export function parseProgress(text: string | undefined): 'any' | 'always' | 'never' {
  if (text === undefined) return 'any';
  if (text === 'any' || text === 'always' || text === 'never') return text;
  throw new UsageError(`--progress must be any, always or never, not '${text}'`);
}

/** Run the exhaustive search to `depth` on every core, with a progress bar unless `quiet`, under the
 *  command's registry (the pool's threads load the same modules) and the properties `--property` names. */
export async function exhaustiveFromArgs(
  args: Parsed,
  c: Combination,
  depth: number,
  quiet: boolean,
  registry: Registry,
): Promise<Exploration> {
  const faults = parseFaults(stringOption(args, 'faults'), registry);
  const config = runConfig({ registry, properties: parseProperty(stringOption(args, 'property'), registry) });
  const calls = intOption(args, 'calls', DEFAULT_EXPLORE_CALLS, { min: 1, max: 5 });
  const workers = intOption(args, 'workers', defaultWorkers(), { min: 1, max: 256 });
  const maxStates = args.options['max-states'] === undefined ? undefined : intOption(args, 'max-states', 1, { min: 1 });
  const workloads = sequentialWorkloads(calls, parseProgress(stringOption(args, 'progress')));
  const progress = progressBar(!quiet);
  progress.update(0, workloads.length, 'workloads explored'); // shown (and its clock ticking) before the first job ends
  const e = await exploreInParallel(c, { faults, depth, workloads, ...(maxStates !== undefined ? { maxStates } : {}) }, config, {
    workers,
    onJob: (done, total) => progress.update(done, total, 'workloads explored'),
  });
  progress.done();
  return e;
}

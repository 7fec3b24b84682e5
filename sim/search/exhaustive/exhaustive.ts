// Exhaustive exploration of one combination: one exploration job per workload (search/exhaustive/explore.ts),
// run here or on the worker pool (search/exhaustive/parallel.ts), merged in job order, so that the result is
// the same whichever ran them. Per property: "holds up to depth k (N distinct states, M plans)",
// or the shortest counterexample over every workload explored.
import type { FaultName } from '../../../models/faults.ts';
import type { Combination } from '../../../models/policies.ts';
import type { Property } from '../../../properties/properties.ts';
import { decideVerdict, type SearchVerdict } from '../../../properties/vacuity.ts';
import type { Cell } from '../../core/cells.ts';
import { union } from '../../core/reach.ts';
import { coverageReport, type MachineCoverage } from '../../world/coverage.ts';
import { exploreJob, type ExploreConfig, type ExploreJob, type JobResult } from './explore.ts';
import type { FaultPlan } from '../../core/plan.ts';
import { call, type Workload } from '../../core/workload.ts';
import { CHECK_MAX_CALLS, CHECK_MAX_FAULTS } from '../random/arbitraries.ts';

export interface ExhaustiveOptions {
  /** The fault alphabet. */
  faults: readonly FaultName[];
  depth: number;
  /** Default: every sequential workload of up to 2 calls, with and without progress. */
  workloads?: readonly Workload[];
  /** Per workload: stop there, incomplete (a deterministic budget). */
  maxStates?: number;
}

/** The `exhaustive` block of one property in a JSON report. */
export interface Exhaustive {
  /** Numbers of faults explored completely. */
  depth: number;
  states: number;
  plans: number;
  /** `vacuous`: it holds, but no explored plan reached its situation (properties/vacuity.ts). */
  verdict: SearchVerdict;
  /** Some explored plan reached the property's situation. */
  reached: boolean;
  /** The shortest violating plan, with why it violates (its fold's verdict at the end of that run). */
  shortest: null | { faults: FaultPlan; workload: Workload; why: string };
}

export interface Exploration {
  combination: Combination;
  faults: readonly FaultName[];
  /** The depth asked for. */
  depth: number;
  workloads: Workload[];
  /** False when a budget stopped some workload's exploration before the depth asked for. */
  complete: boolean;
  states: number;
  plans: number;
  /** Plans covered, by number of faults. */
  plansByFaults: number[];
  /** Runs cut short by the world's step budget (none, in every exploration so far). */
  budgetExhausted: number;
  results: ({ property: string } & Exhaustive)[];
  coverage: MachineCoverage[];
  /** What `check` draws by default (search/random/arbitraries.ts): a property that holds here on
   *  shorter workloads or fewer faults may still fail there, which the verdict lines say. */
  check: { calls: number; faults: number };
}

/** Sequential workloads of 1..calls tools/calls; `any` gives every mix of progress and none. */
export function sequentialWorkloads(calls: number, progress: 'never' | 'always' | 'any'): Workload[] {
  const out: Workload[] = [];
  for (let n = 1; n <= calls; n++) {
    const patterns = progress === 'any' ? 2 ** n : 1;
    for (let bits = 0; bits < patterns; bits++) {
      out.push(
        Array.from({ length: n }, (_, i) => call(progress === 'always' || (progress === 'any' && ((bits >> (n - 1 - i)) & 1) === 1))),
      );
    }
  }
  return out;
}

export const DEFAULT_EXPLORE_CALLS = 2;

export function jobsFor(combination: Combination, options: ExhaustiveOptions): ExploreJob[] {
  const workloads = options.workloads ?? sequentialWorkloads(DEFAULT_EXPLORE_CALLS, 'any');
  return workloads.map((workload) => ({
    combination,
    workload,
    faults: options.faults,
    depth: options.depth,
    ...(options.maxStates !== undefined ? { maxStates: options.maxStates } : {}),
  }));
}

/** Merge the results of `jobsFor(...)`, in job order; `properties`: those the jobs judged. */
export function mergeJobs(
  combination: Combination,
  options: ExhaustiveOptions,
  properties: readonly Property[],
  jobs: readonly JobResult[],
): Exploration {
  const names = properties.map((p) => p.name);
  const width = Math.max(0, ...jobs.map((j) => j.plansByFaults.length));
  const plansByFaults = Array.from({ length: width }, (_, r) => jobs.reduce((sum, j) => sum + (j.plansByFaults[r] ?? 0), 0));
  const states = jobs.reduce((sum, j) => sum + j.states, 0);
  const plans = plansByFaults.reduce((a, b) => a + b, 0);
  const complete = jobs.every((j) => j.complete);
  const explored = complete ? options.depth : Math.min(...jobs.map((j) => j.depth));
  const results = names.map((property, i) => {
    let shortest: Exhaustive['shortest'] = null;
    for (const j of jobs) {
      const { shortest: s, why } = j.properties[i]!;
      if (s && (!shortest || s.length < shortest.faults.length)) shortest = { faults: s, workload: j.workload, why: why ?? '' };
    }
    const reached = jobs.some((j) => j.properties[i]!.reached);
    const verdict = decideVerdict({ violated: shortest !== null, reached });
    const depth = shortest ? Math.min(explored, ...jobs.map((j) => j.depth)) : explored;
    return { property, depth, states, plans, verdict, reached, shortest };
  });
  const coverage = coverageReport(union(...jobs.map((j) => j.reach)));
  return {
    combination,
    faults: options.faults,
    depth: options.depth,
    workloads: jobs.map((j) => j.workload as Workload),
    complete,
    states,
    plans,
    plansByFaults,
    budgetExhausted: jobs.reduce((sum, j) => sum + j.budgetExhausted, 0),
    results,
    coverage,
    check: { calls: CHECK_MAX_CALLS, faults: CHECK_MAX_FAULTS },
  };
}

/** Explore in this thread, under the run's world and properties. `exploreInParallel`
 *  (search/exhaustive/parallel.ts) gives the same result. */
export function exploreCombination(
  combination: Combination,
  options: ExhaustiveOptions,
  config: ExploreConfig,
  onJob?: (done: number, total: number) => void,
): Exploration {
  const jobs = jobsFor(combination, options);
  const results = jobs.map((job, i) => {
    onJob?.(i, jobs.length);
    return exploreJob(job, config);
  });
  onJob?.(jobs.length, jobs.length);
  return mergeJobs(combination, options, config.properties, results);
}

/** How a seed cell is explored: its record's alphabet; sequential workloads of up to three calls,
 *  all with progress for record 003's cells, any mix for record 000's (as `compare` draws them). */
export function cellOptions(cell: Cell, depth: number): ExhaustiveOptions {
  return { faults: cell.faults, depth, workloads: sequentialWorkloads(3, cell.progressCalls ? 'always' : 'any') };
}

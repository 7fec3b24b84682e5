// What one exhaustive job is asked (a combination, a workload, the fault alphabet, a depth) and what
// it answers (states, plans by number of faults, each property's outcome with its shortest plan, the
// coverage reached): the data explore.ts computes and the pool, the merge and the reports read. The
// properties judged and the world's options are the run's config's (`ExploreConfig`).
import type { FaultName } from '../../../models/faults.ts';
import type { Combination } from '../../../models/policies.ts';
import type { FaultPlan } from '../../core/plan.ts';
import type { Workload } from '../../core/workload.ts';
import type { RunConfig } from '../../plugins/run-config.ts';

/** What an exploration reads of a run's config (plugins/run-config.ts): the world and the properties. */
export type ExploreConfig = Pick<RunConfig, 'world' | 'properties'>;

export interface ExploreJob {
  combination: Combination;
  workload: Workload;
  /** The fault alphabet. */
  faults: readonly FaultName[];
  depth: number;
  /** Tie-breaking picks among simultaneous events (world/clock.ts); FIFO when empty. */
  schedule?: readonly number[];
  /** Merge equal states (default). Off, the explorer walks the plain tree of plans: for tests. */
  dedup?: boolean;
  /** Stop, incomplete, once this many states have been reached (a deterministic budget). */
  maxStates?: number;
  /** Worlds the frontier keeps at once (default 4096); beyond, they are re-created by replay. Same result. */
  liveWorlds?: number;
  /** Count the knobs of the combination the whole search read (`JobResult.reads`): a certificate is
   *  then kept in the run store (search/certify.ts). Off by default: a counted read costs a getter. */
  countReads?: boolean;
}

export interface PropertyOutcome {
  property: string;
  holds: boolean;
  /** Some explored plan reached the property's situation (else its holding is vacuous). */
  reached: boolean;
  /** The first violating plan found with the fewest faults, or null. */
  shortest: FaultPlan | null;
  /** Why that plan violates the property: its fold's verdict at the end of that very run. */
  why: string | null;
}

export interface JobResult {
  workload: Workload;
  /** Levels (numbers of faults) fully explored: the requested depth when complete. */
  depth: number;
  complete: boolean;
  /** Distinct world states reached (paused before a request, its faults not chosen yet), merged. */
  states: number;
  /** Distinct fault plans covered (each fault at a request the run carries), by number of faults. */
  plansByFaults: number[];
  /** Runs that hit the world's step budget (a proof is only as long as its runs: reported). */
  budgetExhausted: number;
  /** Frontier worlds re-created by replaying their plan (more than `liveWorlds` were waiting). */
  replays: number;
  properties: PropertyOutcome[];
  /** With `countReads`: the knobs (world/knob-reads.ts bits) any of its runs read, the fault-free one
   *  included; every knob where they cannot be told. */
  reads?: number;
  reach: { client: { states: string[]; transitions: string[] }; server: { states: string[]; transitions: string[] } };
}

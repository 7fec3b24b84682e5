// The parts of the sampled runs the run store keeps whole (search/random/input-judge.ts
// `InputJudge.sampled`), each distinct one kept once: a run's coverage is four Sets and its verdicts a
// record of objects, and many runs of a comparison give equal ones. Measured on the first 600 cells of
// the full matrix in one thread (heap after a collection): 11.0 MB with no sampled run kept, 28.0 with
// them kept as run, 24.1 with coverages shared, 21.5 with verdicts, 17.5 with call outcomes, 15.7 with
// stats shared too. Cleared with the store.
import type { PropertyVerdict } from '../../properties/fold.ts';
import type { Judgement } from '../../properties/judge.ts';
import type { CallOutcome } from '../../properties/outcomes.ts';
import type { RunCounts } from '../../properties/stats.ts';
import type { Reach } from '../core/reach.ts';

/** A run judged as it went, as the tally reads it (search/random/input-judge.ts `Judged`, without a
 *  history): immutable once made, shared by every cell that finds it. */
export interface SampledRun {
  judgement: Judgement;
  stats: RunCounts;
  coverage: Reach | undefined;
  reads: number;
}

export class SharedParts {
  private readonly coverageOf = new Map<string, Reach>();
  private readonly verdictsOf = new Map<string, Record<string, PropertyVerdict>>();
  private readonly outcomesOf = new Map<string, CallOutcome[]>();
  private readonly statsOf = new Map<string, RunCounts>();

  /** `run` as kept: an equal copy whose every part is one kept before where there is one. */
  run(run: SampledRun): SampledRun {
    const { judgement, stats, coverage, reads } = run;
    const reach = coverage === undefined ? undefined : this.coverage(coverage);
    return {
      judgement: { outcomes: this.outcomes(judgement.outcomes), verdicts: this.verdicts(judgement.verdicts) },
      // The stats hold the run's reach: the shared one.
      stats: this.stats(stats.reach === coverage ? { ...stats, reach } : stats),
      coverage: reach,
      reads,
    };
  }

  /** `reach`, or an equal coverage kept before: the same states and transitions in the same order (the
   *  order a cell's union sees them in). */
  private coverage(reach: Reach): Reach {
    let key = '';
    for (const s of reach.client.states) key += `${s}\u0000`;
    key += '\u0001';
    for (const s of reach.client.transitions) key += `${s}\u0000`;
    key += '\u0001';
    for (const s of reach.server.states) key += `${s}\u0000`;
    key += '\u0001';
    for (const s of reach.server.transitions) key += `${s}\u0000`;
    const shared = this.coverageOf.get(key);
    if (shared !== undefined) return shared;
    this.coverageOf.set(key, reach);
    return reach;
  }

  /** `v`, or an equal set of verdicts kept before: by each property's name and verdict (every field of
   *  it: a policy module's property may add some), in order. */
  private verdicts(v: Record<string, PropertyVerdict>): Record<string, PropertyVerdict> {
    let key = '';
    for (const name in v) key += `${name}\u0000${JSON.stringify(v[name])}\u0001`;
    const shared = this.verdictsOf.get(key);
    if (shared !== undefined) return shared;
    this.verdictsOf.set(key, v);
    return v;
  }

  /** `outcomes`, or an equal list kept before (by its JSON: every field, in order). */
  private outcomes(outcomes: CallOutcome[]): CallOutcome[] {
    const key = JSON.stringify(outcomes);
    const shared = this.outcomesOf.get(key);
    if (shared !== undefined) return shared;
    this.outcomesOf.set(key, outcomes);
    return outcomes;
  }

  /** `stats`, or equal stats kept before: the same counts, and the same (shared) reach object. */
  private stats(stats: RunCounts): RunCounts {
    // Every field but the reach, whose object is compared (a field added to the stats later is keyed too).
    const key = JSON.stringify(stats, (k, v) => (k === 'reach' ? undefined : v));
    const shared = this.statsOf.get(key);
    if (shared !== undefined && shared.reach === stats.reach) return shared;
    if (shared === undefined) this.statsOf.set(key, stats);
    return stats;
  }

  clear(): void {
    this.statsOf.clear();
    this.outcomesOf.clear();
    this.coverageOf.clear();
    this.verdictsOf.clear();
  }
}

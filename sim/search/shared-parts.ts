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

/** `value`, or the equal one kept before under `key`. */
function keptAs<T>(kept: Map<string, T>, key: string, value: T): T {
  const before = kept.get(key);
  if (before !== undefined) return before;
  kept.set(key, value);
  return value;
}

/** A coverage as a key: the same states and transitions in the same order (the order a cell's union
 *  sees them in). */
function coverageKey(reach: Reach): string {
  let key = '';
  for (const m of [reach.client, reach.server]) {
    for (const s of m.states) key += `${s}\u0000`;
    key += '\u0001';
    for (const t of m.transitions) key += `${t}\u0000`;
    key += '\u0001';
  }
  return key;
}

export class SharedParts {
  private readonly coverages = new Map<string, Reach>();
  private readonly verdicts = new Map<string, Record<string, PropertyVerdict>>();
  private readonly outcomes = new Map<string, CallOutcome[]>();
  private readonly stats = new Map<string, RunCounts>();

  /** `run` as kept: an equal copy whose every part is one kept before where there is one. Verdicts are
   *  keyed by each property's name and verdict (every field of it: a policy module's property may add
   *  some), call outcomes and stats by their JSON (every field, in order; a field added later is keyed
   *  too), the stats also by their reach, which is the run's coverage: the shared one. */
  run(run: SampledRun): SampledRun {
    const { judgement, stats, coverage, reads } = run;
    const reachKey = coverage === undefined ? '-' : coverageKey(coverage);
    const reach = coverage === undefined ? undefined : keptAs(this.coverages, reachKey, coverage);
    let verdictsKey = '';
    for (const name in judgement.verdicts) verdictsKey += `${name}\u0000${JSON.stringify(judgement.verdicts[name])}\u0001`;
    const countsKey = JSON.stringify(stats, (k, v) => (k === 'reach' ? undefined : v));
    return {
      judgement: {
        outcomes: keptAs(this.outcomes, JSON.stringify(judgement.outcomes), judgement.outcomes),
        verdicts: keptAs(this.verdicts, verdictsKey, judgement.verdicts),
      },
      stats: stats.reach === coverage ? keptAs(this.stats, `${reachKey}\u0002${countsKey}`, { ...stats, reach }) : stats,
      coverage: reach,
      reads,
    };
  }

  clear(): void {
    for (const kept of [this.coverages, this.verdicts, this.outcomes, this.stats]) kept.clear();
  }
}

// Minimality certificates for random counterexamples. fast-check shrinks greedily and can stop at
// a plan longer than it need be (dropping one fault renumbers the requests the others fire at).
// A certificate settles it: an exhaustive search of every plan with fewer faults, on the
// counterexample's own workload and schedule. `minimal: true` means none of them violates the
// property; otherwise `shorter` is one that does, with the fewest faults.
//
// A comparison asks for thousands of certificates of a few problems: the full matrix's 5,962 are of
// 21 workloads, schedules, alphabets, depths and properties, under 1,920 combinations (counted once,
// issue 40). An exhaustive search is a function of its job and of the knob values its runs read, as
// a run is (world/knob-reads.ts), so a certificate is kept in the run store under the knobs the whole
// search read, and a combination that agrees on them gets it without the search. Counted once with a
// temporary probe: the full matrix's searches 5,962 → 1,042 (the rest read most knobs: each explores
// every plan of its depth), the default's 158 → 72. Under `node --cpu-prof`, one run each against the
// build before: the full matrix's certification stage 6.89 → 4.79 s; `compare --quiet` unchanged within
// the noise (4.8–5.5 s CPU either way, 5 runs each, alternating).
import type { FaultName } from '../../models/faults.ts';
import type { Combination } from '../../models/policies.ts';
import type { Property } from '../../properties/properties.ts';
import type { CheckResult, Shorter } from './random/result.ts';
import type { Exploration } from './exhaustive/exhaustive.ts';
import { exploreJob } from './exhaustive/explore.ts';
import type { FaultPlan } from '../core/plan.ts';
import type { Workload } from '../core/workload.ts';
import type { WorldOptions } from '../world/world.ts';
import { workloadKey } from './random/run-keys.ts';
import { propertyBit, runStore } from './run-store.ts';

export interface Certificate {
  minimal: boolean;
  /** A violating plan with fewer faults than the counterexample's, on its workload, when one exists. */
  shorter: null | Shorter;
}

export interface Certifiable {
  faults: FaultPlan;
  workload: Workload;
  schedule: readonly number[];
}

export function certify(
  combination: Combination,
  property: Property,
  ce: Certifiable,
  alphabet: readonly FaultName[],
  world: WorldOptions,
): Certificate {
  if (ce.faults.length === 0) return { minimal: true, shorter: null };
  const depth = ce.faults.length - 1;
  const bit = propertyBit(property);
  const store = bit === 0 ? undefined : runStore.scope(combination, world);
  // Apart from the runs' keys (which start with a digit or `[`): the search's job but its combination.
  const key = `c${bit};${depth};${alphabet.join(',')};${ce.schedule.join(',')};${workloadKey(ce.workload)}`;
  let shortest = store?.find(key, (s) => s.shortest !== undefined)?.summary.shortest;
  if (shortest === undefined) {
    const job = { combination, workload: ce.workload, schedule: ce.schedule, faults: alphabet, depth, countReads: store !== undefined };
    const r = exploreJob(job, { world, properties: [property] });
    shortest = r.properties[0]!.shortest;
    store?.add(key, r.reads!, { shortest });
  }
  return shortest ? { minimal: false, shorter: { faults: shortest, workload: ce.workload } } : { minimal: true, shorter: null };
}

/** A check result with the exhaustive search beside it: each property gains its `exhaustive` block,
 *  and a counterexample the search beats (a shorter plan on another workload) is not minimal. */
export function withExhaustive<R extends CheckResult>(
  result: R,
  e: Exploration,
): R & { exploration: Omit<Exploration, 'combination' | 'faults' | 'results'> } {
  const results = result.results.map((r) => {
    const x = e.results.find((q) => q.property === r.property);
    if (!x) return r;
    const { property: _p, ...exhaustive } = x;
    const beaten = r.counterexample && x.shortest && x.shortest.faults.length < r.counterexample.faults.length;
    return {
      ...r,
      exhaustive,
      ...(beaten ? { minimal: false, shorter: { faults: x.shortest!.faults, workload: x.shortest!.workload } } : {}),
    };
  });
  const { combination: _c, faults: _f, results: _r, ...exploration } = e;
  return { ...result, results, exploration };
}

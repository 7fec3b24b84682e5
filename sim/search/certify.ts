// Minimality certificates for random counterexamples. fast-check shrinks greedily and can stop at
// a plan longer than it need be (dropping one fault renumbers the requests the others fire at).
// A certificate settles it: an exhaustive search of every plan with fewer faults, on the
// counterexample's own workload and schedule. `minimal: true` means none of them violates the
// property; otherwise `shorter` is one that does, with the fewest faults. Certificates are not
// cached: one is rarely asked for twice (docs/performance.md has the measurement).
import type { FaultName } from '../../models/faults.ts';
import type { Combination } from '../../models/policies.ts';
import type { Property } from '../../properties/properties.ts';
import type { CheckResult, Shorter } from './random/result.ts';
import type { Exploration } from './exhaustive/exhaustive.ts';
import { exploreJob } from './exhaustive/explore.ts';
import type { FaultPlan } from '../core/plan.ts';
import type { Workload } from '../core/workload.ts';
import type { WorldOptions } from '../world/world.ts';

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
  const job = { combination, workload: ce.workload, schedule: ce.schedule, faults: alphabet, depth: ce.faults.length - 1 };
  const r = exploreJob(job, { world, properties: [property] });
  const shortest = r.properties[0]!.shortest;
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

// Minimality certificates for random counterexamples. fast-check shrinks greedily and can stop at
// a plan longer than it need be (dropping one fault renumbers the requests the others fire at).
// A certificate settles it: an exhaustive search of every plan with fewer faults, on the
// counterexample's own workload and schedule. `minimal: true` means none of them violates the
// property; otherwise `shorter` is one that does, with the fewest faults.
import type { FaultName } from '../../models/faults.ts';
import { NO_EXTENSIONS } from '../../models/registry.ts';
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

/** Certificates already computed, by everything they depend on: the suites certify the same
 *  counterexample from many seeds. Per property object and per extensions value (a registry's
 *  property or policy of the same name may judge or act otherwise: never shared by name), then by
 *  the rest as JSON. Bounded per property, oldest dropped first. */
const caches = new WeakMap<object, WeakMap<Property, Map<string, Certificate>>>();
const CACHE_SIZE = 500;

function cacheOf(property: Property, world: Partial<WorldOptions>): Map<string, Certificate> {
  const scope = world.extensions ?? NO_EXTENSIONS;
  let byProperty = caches.get(scope);
  if (!byProperty) caches.set(scope, (byProperty = new WeakMap()));
  let cache = byProperty.get(property);
  if (!cache) byProperty.set(property, (cache = new Map()));
  return cache;
}

export function certify(
  combination: Combination,
  property: Property,
  ce: Certifiable,
  alphabet: readonly FaultName[],
  world: Partial<WorldOptions> = {},
): Certificate {
  if (ce.faults.length === 0) return { minimal: true, shorter: null };
  const cache = cacheOf(property, world);
  const { extensions: _e, ...plainWorld } = world;
  const key = JSON.stringify([combination, ce.workload, ce.schedule, alphabet, ce.faults.length, plainWorld]);
  const hit = cache.get(key);
  if (hit) return hit;
  const r = exploreJob({
    combination,
    workload: ce.workload,
    schedule: ce.schedule,
    faults: alphabet,
    depth: ce.faults.length - 1,
    properties: [property],
    world,
  });
  const shortest = r.properties[0]!.shortest;
  const certificate: Certificate = shortest
    ? { minimal: false, shorter: { faults: shortest, workload: ce.workload } }
    : { minimal: true, shorter: null };
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, certificate);
  return certificate;
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

// Shared by the property suites: run a check and read one property's result; exhaust small plans.
import { expect } from 'vitest';
import type { FaultName } from '../../models/faults.ts';
import type { Combination } from '../../models/policies.ts';
import { CombinationJudge, type PropertyResult } from '../../sim/search/random/check.ts';
import { check, type CheckOptions } from '../../index.ts';
import { enumeratePlans } from '../fixtures/enumerate-plans.ts';
import { call, type Workload } from '../../sim/core/workload.ts';
import { propertyByName } from '../../properties/properties.ts';
import { DEFAULT_CONFIG } from '../../sim/plugins/run-config.ts';

export function result(c: Combination, property: string, options: CheckOptions): PropertyResult {
  const p = propertyByName(property)!;
  const r = check(c, { ...options, properties: [p] });
  return r.results[0]!;
}

export const kinds = (r: PropertyResult) => r.counterexample?.faults.map((f) => f.fault);

/** Sequential workloads of one to three calls, all with or all without progress. */
export function smallWorkloads(progress: boolean): Workload[] {
  return [[call(progress)], [call(progress), call(progress)], [call(false), call(progress), call(progress)]];
}

/**
 * Every plan over `alphabet` up to `depth` faults at request indices 0..maxPoint, under every
 * workload: the property must hold in each. Returns how many runs were checked and how many of
 * them reached the property's situation, so that callers can assert the proof was not vacuous.
 */
export function exhaust(c: Combination, property: string, alphabet: readonly FaultName[], workloads: Workload[], depth = 3, maxPoint = 9) {
  const judgeRun = new CombinationJudge(c, DEFAULT_CONFIG);
  let runs = 0;
  let reached = 0;
  for (const workload of workloads) {
    for (const plan of enumeratePlans(alphabet, maxPoint, depth)) {
      const v = judgeRun.recorded(plan, workload, []).judgement.verdicts[property]!;
      runs++;
      if (v.reached) reached++;
      if (!v.holds) expect.fail(`${property} violated by ${JSON.stringify(plan)} under ${JSON.stringify(workload)}: ${v.why}`);
    }
  }
  return { runs, reached };
}

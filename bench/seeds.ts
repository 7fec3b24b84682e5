// How soon random search finds each record's failure: over 100 seeds, the runs and milliseconds to
// the first failing run (fast-check stopping there, each run judged as it goes as `check` does: no
// history, nothing memoized), then the shrink steps and whether the shrunk plan is certified
// minimal (a full `check`, as users run it).
import fc from 'fast-check';
import type { FaultName } from '../models/faults.ts';
import type { Combination } from '../models/policies.ts';
import { propertyByName } from '../properties/properties.ts';
import { inputs, type InputShape } from '../sim/search/random/arbitraries.ts';
import { ALPHABET_000, ALPHABET_003, VULNERABLE_000, VULNERABLE_003 } from '../sim/core/cells.ts';
import { checkCombination, CombinationJudge } from '../sim/search/random/check.ts';
import { runConfig } from '../sim/plugins/run-config.ts';
import { note, now, round, spread, type Spread } from './measure.ts';

interface Record {
  combination: Combination;
  faults: readonly FaultName[];
  property: string;
  shape: InputShape;
}

export const RECORDS: { [seed in '000' | '003']: Record } = {
  '000': { combination: VULNERABLE_000, faults: ALPHABET_000, property: 'no-silent-empty', shape: { workload: { overlap: false } } },
  '003': {
    combination: VULNERABLE_003,
    faults: ALPHABET_003,
    property: 'no-silent-hang',
    shape: { workload: { overlap: false, progress: 'always' } },
  },
};

export interface SeedFigures {
  seeds: number;
  runsPerSeed: number;
  runsToFirst: Spread;
  msToFirst: Spread;
  shrinks: Spread;
  /** Share of seeds whose failure was found within `runsPerSeed` runs. */
  foundWithin: number;
  /** Seeds whose shrunk counterexample is certified minimal. */
  minimal: number;
  faultsInShrunkPlan: number[];
}

export function measureSeed(record: Record, seeds: number, runs = 200): SeedFigures {
  const p = propertyByName(record.property)!;
  const shape: InputShape = { ...record.shape, plan: { ...record.shape.plan, faults: record.faults } };
  const toFirst: number[] = [];
  const ms: number[] = [];
  const shrinks: number[] = [];
  const lengths = new Set<number>();
  let found = 0;
  let minimal = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    note(`seeds: ${record.property} seed ${seed}/${seeds}`);
    const judge = new CombinationJudge(record.combination, runConfig({ properties: [p] }));
    const property = fc.property(
      inputs(shape),
      ([plan, workload, schedule]) => judge.judged(plan, workload, schedule).judgement.verdicts[p.name]!.holds,
    );
    const t = now();
    const first = fc.check(property, { seed, numRuns: runs, endOnFailure: true });
    const elapsed = now() - t;
    if (first.failed) {
      found++;
      toFirst.push(first.numRuns);
      ms.push(elapsed);
    }
    const r = checkCombination(record.combination, runConfig({ properties: [p], seed, runs }), record).results[0]!;
    if (r.counterexample) {
      shrinks.push(r.counterexample.shrinks);
      lengths.add(r.counterexample.faults.length);
      if (r.minimal) minimal++;
    }
  }
  const ok = (values: number[]): Spread => (values.length ? spread(values) : { median: NaN, p90: NaN, max: NaN });
  const msSpread = ok(ms);
  return {
    seeds,
    runsPerSeed: runs,
    runsToFirst: ok(toFirst),
    msToFirst: { median: round(msSpread.median, 2), p90: round(msSpread.p90, 2), max: round(msSpread.max, 2) },
    shrinks: ok(shrinks),
    foundWithin: found / seeds,
    minimal,
    faultsInShrunkPlan: [...lengths].sort(),
  };
}

// Exhaustive exploration must say exactly what running every plan would: an independent brute force
// runs every effective plan (each fault at a request its run carries) through `runWorld` and the
// whole-history oracles, and the explorer, which forks and merges states, must agree on every
// property's verdict, vacuity and shortest counterexample length, and count exactly the same plans.
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAULT_VOCABULARY, type FaultName } from '../../../models/faults.ts';
import type { Combination } from '../../../models/policies.ts';
import { judge } from '../../../properties/judge.ts';
import { referenceOf } from '../../../properties/outcomes.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { workload as anyWorkload, schedule as anySchedule } from '../../../sim/search/random/arbitraries.ts';
import { ALPHABET_000, ALPHABET_003_WITH_502, DOES_NOT_APPLY_000, VULNERABLE_000, VULNERABLE_003 } from '../../../sim/core/cells.ts';
import { exploreJob, type ExploreJob } from '../../../sim/search/exhaustive/explore.ts';
import { firingPoint, type PlannedFault } from '../../../sim/core/plan.ts';
import { call, type Workload } from '../../../sim/core/workload.ts';
import { runWorld } from '../../../sim/world/world.ts';
import { anyCombination } from '../../fixtures/combinations.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';
import { DEFAULT_CONFIG } from '../../../sim/plugins/run-config.ts';

interface Brute {
  plansByFaults: number[];
  properties: Record<string, { violatedAt: number | null; reached: boolean }>;
}

/** Every effective plan, grown one fault at a time in firing order: a fault at request p is
 *  effective when the run of the plan so far carries request p (later faults cannot change that). */
function bruteForce(c: Combination, workload: Workload, alphabet: readonly FaultName[], depth: number, schedule: number[] = []): Brute {
  const reference = referenceOf(runWorld({ combination: c, workload, plan: [], schedule }, DEFAULT_WORLD));
  const out: Brute = { plansByFaults: Array(depth + 1).fill(0), properties: {} };
  for (const p of PROPERTIES) out.properties[p.name] = { violatedAt: null, reached: false };
  const order = (f: PlannedFault) => firingPoint(f) * 100 + alphabet.indexOf(f.fault);
  const visit = (plan: PlannedFault[]) => {
    const history = runWorld({ combination: c, workload, plan, schedule }, DEFAULT_WORLD);
    out.plansByFaults[plan.length]!++;
    const { verdicts } = judge(history, reference);
    for (const p of PROPERTIES) {
      const v = verdicts[p.name]!;
      const o = out.properties[p.name]!;
      if (v.reached) o.reached = true;
      if (!v.holds && (o.violatedAt === null || plan.length < o.violatedAt)) o.violatedAt = plan.length;
    }
    if (plan.length === depth) return;
    const carried = history.entries.filter((e) => e.kind === 'request').length;
    const last = plan[plan.length - 1];
    for (let at = last?.at ?? 0; at < carried; at++) {
      for (const fault of alphabet) {
        const next = { fault, at };
        if (last && order(next) < order(last)) continue;
        visit([...plan, next]);
      }
    }
  };
  visit([]);
  return out;
}

function agree(job: ExploreJob) {
  const explored = exploreJob(job, DEFAULT_CONFIG);
  const brute = bruteForce(job.combination, job.workload, job.faults, job.depth, job.schedule as number[] | undefined);
  expect(explored.complete).toBe(true);
  const reference = referenceOf(
    runWorld({ combination: job.combination, workload: job.workload, plan: [], schedule: job.schedule }, DEFAULT_WORLD),
  );
  for (const o of explored.properties) {
    const b = brute.properties[o.property]!;
    expect({ property: o.property, violatedAt: o.shortest?.length ?? null, reached: o.reached }).toEqual({
      property: o.property,
      violatedAt: b.violatedAt,
      reached: b.reached,
    });
    if (o.shortest) {
      // The shortest plan the explorer reports replays, through the ordinary world, as a violation.
      const replay = judge(
        runWorld({ combination: job.combination, workload: job.workload, plan: o.shortest, schedule: job.schedule }, DEFAULT_WORLD),
        reference,
      );
      expect(replay.verdicts[o.property]!.holds, o.property).toBe(false);
      // …and the reason the explorer's fold gave at the end of that path is the replay's, word for word.
      expect(o.why, o.property).toBe(replay.verdicts[o.property]!.why);
    }
  }
  if (explored.properties.some((o) => o.shortest === null)) expect(explored.plansByFaults).toEqual(brute.plansByFaults);
  return explored;
}

describe('exhaustive exploration', () => {
  it('agrees with running every plan on the seed cells', () => {
    const v000 = agree({ combination: VULNERABLE_000, workload: [call(), call()], faults: ALPHABET_000, depth: 3 });
    expect(v000.properties.find((p) => p.property === 'no-silent-empty')!.shortest).toEqual([
      { fault: 'config-reset', at: 0 },
      { fault: 'http-502', at: 2 },
    ]);
    agree({ combination: DOES_NOT_APPLY_000[0]!.combination, workload: [call(), call(), call()], faults: ALPHABET_000, depth: 3 });
    const v003 = agree({ combination: VULNERABLE_003, workload: [call(true), call(true)], faults: ALPHABET_003_WITH_502, depth: 3 });
    expect(v003.properties.find((p) => p.property === 'no-silent-hang')!.shortest).toEqual([
      { fault: 'strip-header:transfer-encoding', at: 0 },
    ]);
  });

  it('agrees with running every plan over the whole vocabulary', () => {
    agree({ combination: DOES_NOT_APPLY_000[1]!.combination, workload: [call(true)], faults: FAULT_VOCABULARY, depth: 2 });
  });

  test.prop(
    [
      anyCombination,
      anyWorkload({ maxCalls: 2, overlap: true, lists: true }),
      fc.uniqueArray(fc.constantFrom(...FAULT_VOCABULARY), { minLength: 1, maxLength: 3 }),
      anySchedule(),
    ],
    { numRuns: 25 },
  )('agrees with running every plan on any combination, workload, alphabet and schedule', (c, workload, faults, schedule) => {
    agree({ combination: c, workload: workload.length ? workload : [call()], faults, depth: 3, schedule });
  });

  it('without merging walks the plain tree of plans, with the same verdicts and counts', () => {
    const job = { combination: VULNERABLE_000, workload: [call(), call()], faults: ALPHABET_000, depth: 3 };
    const merged = exploreJob(job, DEFAULT_CONFIG);
    const tree = exploreJob({ ...job, dedup: false }, DEFAULT_CONFIG);
    expect(tree.properties).toEqual(merged.properties);
    expect(tree.plansByFaults).toEqual(merged.plansByFaults);
    expect(tree.states).toBeGreaterThan(merged.states);
  });

  it('stops, incomplete, at a state budget, reporting the depth it finished', () => {
    const r = exploreJob(
      {
        combination: DOES_NOT_APPLY_000[1]!.combination,
        workload: [call(), call()],
        faults: ALPHABET_000,
        depth: 6,
        maxStates: 40,
      },
      DEFAULT_CONFIG,
    );
    expect(r.complete).toBe(false);
    expect(r.states).toBe(40);
    expect(r.depth).toBeLessThan(6);
    expect(r.plansByFaults).toHaveLength(r.depth + 1);
  });

  it('re-creates the frontier worlds it does not keep by replaying their plans, with the same result', () => {
    const job = { combination: DOES_NOT_APPLY_000[1]!.combination, workload: [call(), call()], faults: ALPHABET_000, depth: 4 };
    const kept = exploreJob(job, DEFAULT_CONFIG);
    expect(kept.replays).toBe(0);
    for (const liveWorlds of [0, 3]) {
      const replayed = exploreJob({ ...job, liveWorlds }, DEFAULT_CONFIG);
      expect(replayed.replays, `liveWorlds ${liveWorlds}`).toBeGreaterThan(0);
      expect({ ...replayed, replays: 0 }).toEqual(kept);
    }
  });
});

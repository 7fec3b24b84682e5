// Fault-free references shared by combinations (search/random/reference-memo.ts): a reference the
// memo hands a combination is the one its own fault-free run gives, with the same reads counted; a
// combination that differs on a knob the reference read, or a world with other options, runs its own.
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Workload } from '../../../sim/core/workload.ts';
import { combination, type Combination } from '../../../models/policies.ts';
import { referenceOf, type Reference } from '../../../properties/outcomes.ts';
import { inputs } from '../../../sim/search/random/arbitraries.ts';
import { workloadKey } from '../../../sim/search/random/input-judge.ts';
import { differing, KNOBS, knobValues, readsDuring, trackedCombination } from '../../../sim/search/random/read-set.ts';
import { worldKey } from '../../../sim/search/random/read-set-memo.ts';
import { clearSharedReferences, sharedReferences } from '../../../sim/search/random/reference-memo.ts';
import type { WorldOptions } from '../../../sim/world/options.ts';
import { runWorld } from '../../../sim/world/world.ts';
import { anyCombination, changed } from '../../fixtures/combinations.ts';

/** The fault-free run's reference, under `c` as given (tracked or not). */
function run(c: Combination, workload: Workload, world: Partial<WorldOptions> = {}): Reference {
  return referenceOf(runWorld({ combination: c, plan: [], workload, schedule: [] }, world));
}

const text = (r: Reference) => JSON.stringify([...r]);

/** Ask the memo for `c`'s reference; `computed` tells whether it ran one, `reads` what the ask counted. */
function ask(c: Combination, workload: Workload, world: Partial<WorldOptions> = {}) {
  let computed = false;
  const [reference, reads] = readsDuring(() =>
    sharedReferences(c, world).get(workloadKey(workload), workload, () => {
      computed = true;
      return run(trackedCombination(c), workload, world);
    }),
  );
  return { reference: reference as Reference, reads, computed };
}

/** A few workloads, so that combinations meet on them. */
const workloads = fc
  .sample(inputs({ workload: { overlap: true, lists: true, idempotent: true } }), { seed: 5, numRuns: 6 })
  .map(([, w]) => w);

beforeEach(() => clearSharedReferences());

describe('shared fault-free references', () => {
  it('hand each combination the reference its own run gives, counting the reads that run makes', () => {
    let found = 0;
    let computed = 0;
    fc.assert(
      fc.property(anyCombination, fc.nat({ max: workloads.length - 1 }), (c, w) => {
        const workload = workloads[w]!;
        const got = ask(c, workload);
        expect(text(got.reference)).toBe(text(run(c, workload)));
        expect(got.reads).toBe(readsDuring(() => run(trackedCombination(c), workload))[1]);
        if (got.computed) computed++;
        else found++;
      }),
      { numRuns: 300, seed: 29 },
    );
    // Reached: many asks were answered by another combination's run (50 of 300 with this seed, over the
    // whole policy space), and many had to run.
    expect(found).toBeGreaterThan(25);
    expect(computed).toBeGreaterThan(100);
  });

  it('a combination that differs on a knob the reference read runs its own; one that differs elsewhere does not', () => {
    const workload = workloads[0]!;
    const base = combination({});
    const first = ask(base, workload);
    expect(first.computed).toBe(true);
    const readKnobs = KNOBS.filter((_, i) => (first.reads & (1 << i)) !== 0);
    const unreadKnobs = KNOBS.filter((_, i) => (first.reads & (1 << i)) === 0);
    expect(readKnobs.length).toBeGreaterThan(0);
    expect(unreadKnobs.length).toBeGreaterThan(0);
    /** `base` with this knob at another value (of its first two, one differs; the guards: one guard). */
    const withKnob = (knob: string): Combination => {
      const k = KNOBS.indexOf(knob);
      return [0, 1].map((pick) => changed(base, k, pick, ['probe'])).find((o) => differing(knobValues(o), knobValues(base)) !== 0)!;
    };
    for (const knob of unreadKnobs) expect(ask(withKnob(knob), workload).computed, knob).toBe(false);
    for (const knob of readKnobs) expect(ask(withKnob(knob), workload).computed, knob).toBe(true);
  });

  it('a world with other options runs its own; the same options written again share', () => {
    const workload = workloads[1]!;
    const c = combination({});
    expect(ask(c, workload, {}).computed).toBe(true);
    expect(ask(c, workload, {}).computed).toBe(false);
    expect(ask(c, workload, { deadlineMs: 5_000 }).computed).toBe(true);
    expect(ask(c, workload, { deadlineMs: 5_000 }).computed).toBe(false);
    expect(worldKey({ latencyMs: 1 })).not.toBe(worldKey({ latencyMs: 2 }));
    expect(worldKey({ engine: 'compiled' })).not.toBe(worldKey({ engine: 'xstate' }));
    // An object-valued option counts by identity: another object is another world.
    const steppers = { client: {}, server: {} } as unknown as WorldOptions['engine'];
    expect(worldKey({ engine: steppers })).toBe(worldKey({ engine: steppers }));
    expect(worldKey({ engine: steppers })).not.toBe(worldKey({ engine: { ...(steppers as object) } as WorldOptions['engine'] }));
  });
});

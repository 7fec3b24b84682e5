// The wire tier against the model tier: model client × model server, the same plan on real HTTP
// through msw and in the deterministic world, must give every call the same outcome. A
// disagreement is a bug in one of them; fast-check shrinks it to the smallest plan that shows it.
// Each plan also runs three times on the wire: the same outcomes every time.
import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { History } from '../../../sim/core/history.ts';
import { callOutcomes, referenceOf } from '../../../properties/outcomes.ts';
import { faultPlan, workload } from '../../../sim/search/random/arbitraries.ts';
import { runWire } from '../../../sim/wire/world.ts';
import { runWorld } from '../../../sim/world/world.ts';
import { anyCombination } from '../../fixtures/combinations.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';

describe('wire tier = model tier (model client × model server, both revisions)', () => {
  test.prop([anyCombination, faultPlan({}), workload({ overlap: true, lists: true, idempotent: true })], { numRuns: 60, seed: 5 })(
    'every call has the same outcome on the wire as in the model, three times over',
    async (c, plan, w) => {
      const reference = referenceOf(runWorld({ combination: c, workload: w, plan: [] }, DEFAULT_WORLD));
      const model = callOutcomes(runWorld({ combination: c, workload: w, plan }, DEFAULT_WORLD), reference).map((o) => o.outcome);
      for (let i = 0; i < 3; i++) {
        const wire = await runWire(
          { client: { kind: 'model', policy: c.client }, server: { kind: 'model', policy: c.server } },
          { workload: w, plan },
        );
        expect(callOutcomes(wire, reference).map((o) => o.outcome)).toEqual(model);
      }
    },
  );
});

describe('one fault mechanism on both tiers (model client × model server)', () => {
  // By request, in firing order within each: requests in flight at once (overlapping calls) reach the
  // network in real order on the wire, so entries of different requests may interleave differently.
  const faultsOf = (h: History) =>
    h.entries
      .flatMap((e) => (e.kind === 'fault' ? [{ at: e.at, text: `${e.at} ${e.fault} ${e.applied} ${e.detail}` }] : []))
      .sort((a, b) => a.at - b.at)
      .map((f) => f.text);
  let compared = 0;
  test.prop([anyCombination, faultPlan({}), workload({ overlap: true, lists: true })], { numRuns: 60, seed: 8 })(
    'every fault fires at the same request with the same effect and detail on the wire as in the model',
    async (c, plan, w) => {
      const model = faultsOf(runWorld({ combination: c, workload: w, plan }, DEFAULT_WORLD));
      const sides = { client: { kind: 'model', policy: c.client }, server: { kind: 'model', policy: c.server } } as const;
      const wire = await runWire(sides, { workload: w, plan });
      expect(faultsOf(wire)).toEqual(model);
      compared += model.length;
    },
  );
  it('compared fault entries at all (the property above is not vacuous)', () => expect(compared).toBeGreaterThan(40));
});

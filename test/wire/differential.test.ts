// The wire tier against the model tier: model client × model server, the same plan on real HTTP
// through msw and in the deterministic world, must give every call the same outcome. A
// disagreement is a bug in one of them; fast-check shrinks it to the smallest plan that shows it.
// Each plan also runs three times on the wire: the same outcomes every time.
import { test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { callOutcomes, referenceOf } from '../../properties/outcomes.ts';
import { faultPlan, workload } from '../../search/random/arbitraries.ts';
import { runWire } from '../../wire/world.ts';
import { runWorld } from '../../world/world.ts';
import { anyCombination } from '../fixtures/combinations.ts';


describe('wire tier = model tier (model client × model server, both revisions)', () => {
  test.prop([anyCombination, faultPlan({}), workload({ overlap: true, lists: true, idempotent: true })], { numRuns: 60, seed: 5 })(
    'every call has the same outcome on the wire as in the model, three times over',
    async (c, plan, w) => {
      const reference = referenceOf(runWorld({ combination: c, workload: w, plan: [] }));
      const model = callOutcomes(runWorld({ combination: c, workload: w, plan }), reference).map((o) => o.outcome);
      for (let i = 0; i < 3; i++) {
        const wire = await runWire({ client: { kind: 'model', policy: c.client }, server: { kind: 'model', policy: c.server } }, { workload: w, plan });
        expect(callOutcomes(wire, reference).map((o) => o.outcome)).toEqual(model);
      }
    },
  );
});

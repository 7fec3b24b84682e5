// docs/library.md's model-tier example, verbatim: a designer's own property test of a combination.
import { test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { arbitraries, combination, verdictOf } from 'mcp-faultsim';

const pinFirst = combination({ server: { reinit: 'pin-first' } });

test.prop([arbitraries.faultPlan({ faults: ['http-502', 'config-reset'] }), arbitraries.workload()])(
  'pin-first never answers a call with a silent empty result',
  (plan, workload) => {
    const verdict = verdictOf(pinFirst, { plan, workload }, 'no-silent-empty');
    expect(verdict.holds, verdict.why).toBe(true);
  },
);

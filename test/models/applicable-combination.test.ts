// What a combination never reaches changes nothing it does: between sides that cannot both speak
// 2025-11-25, a run with the session knobs (reinit, advertise, reconnect, the session guards) at any
// values is the run with them at their defaults (`applicableCombination`), entry for entry. The
// mitigation finder relies on it to search such combinations once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applicableCombination, combination, notApplicable } from '../../models/policies.ts';
import { inputs } from '../../sim/search/random/arbitraries.ts';
import { runWorld } from '../../sim/world/world.ts';
import { anyCombination } from '../fixtures/combinations.ts';
import { NO_ADDITIONS } from '../../models/additions.ts';
import { DEFAULT_WORLD } from '../../sim/world/world.ts';

/** Combinations that cannot speak 2025-11-25 together: one side (or both) on 2026-07-28 only. */
const newRevisionOnly = fc.tuple(anyCombination, fc.constantFrom('server', 'client', 'both')).map(([c, newSide]) =>
  combination(
    {
      server: { ...c.server, protocol: newSide === 'client' ? c.server.protocol : '2026-07-28' },
      client: { ...c.client, protocol: newSide === 'server' ? c.client.protocol : '2026-07-28' },
    },
    NO_ADDITIONS,
  ),
);

describe('applicableCombination', () => {
  it('runs every plan as the combination itself does, where the session knobs do not apply', () => {
    let changed = 0;
    let faulted = 0;
    fc.assert(
      fc.property(newRevisionOnly, inputs({ workload: { overlap: true, lists: true } }), (c, [plan, workload, schedule]) => {
        const a = applicableCombination(c);
        expect(notApplicable(c).length).toBeGreaterThan(0);
        if (JSON.stringify(a) !== JSON.stringify(c)) changed++;
        const run = runWorld({ combination: c, plan, workload, schedule }, DEFAULT_WORLD);
        if (run.entries.some((e) => e.kind === 'fault')) faulted++;
        expect(runWorld({ combination: a, plan, workload, schedule }, DEFAULT_WORLD).entries).toEqual(run.entries);
      }),
      { numRuns: 300, seed: 7 },
    );
    // Reached: most draws moved a knob, and most runs met a fault.
    expect(changed).toBeGreaterThan(200);
    expect(faulted).toBeGreaterThan(100);
  });

  it('leaves a combination that speaks 2025-11-25 as it is', () => {
    const c = combination(
      { server: { reinit: 'pin-first', protocol: 'dual' }, client: { guards: ['probe'], protocol: 'negotiate' } },
      NO_ADDITIONS,
    );
    expect(applicableCombination(c)).toBe(c);
  });
});

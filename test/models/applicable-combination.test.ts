// What a combination never reaches changes nothing it does: between sides that cannot both speak
// 2025-11-25, a run with the session knobs (reinit, advertise, reconnect, the session guards) at any
// values is the run with them at their defaults (`applicableCombination`), entry for entry. The
// mitigation finder relies on it to search such combinations once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applicableCombination, CLIENT_KNOBS, combination, notApplicable, SERVER_KNOBS, type Guard } from '../../models/policies.ts';
import { inputs } from '../../search/random/arbitraries.ts';
import { runWorld } from '../../world/world.ts';

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);

/** Combinations that cannot speak 2025-11-25 together: one side on 2026-07-28 only. */
const newRevisionOnly = fc
  .record({
    newSide: fc.constantFrom('server', 'client', 'both'),
    serverProtocol: pick(SERVER_KNOBS.protocol.values),
    clientProtocol: pick(CLIENT_KNOBS.protocol.values),
    reinit: pick(SERVER_KNOBS.reinit.values),
    streaming: pick(SERVER_KNOBS.streaming.values),
    advertise: pick(SERVER_KNOBS.advertise.values),
    reconnect: pick(CLIENT_KNOBS.reconnect.values),
    accept: pick(CLIENT_KNOBS.accept.values),
    parser: pick(CLIENT_KNOBS.parser.values),
    guards: fc.subarray([...CLIENT_KNOBS.guards.values] as Guard[]),
    reissue: pick(CLIENT_KNOBS.reissue.values),
  })
  .map((k) =>
    combination({
      server: {
        reinit: k.reinit,
        streaming: k.streaming,
        advertise: k.advertise,
        protocol: k.newSide === 'client' ? k.serverProtocol : '2026-07-28',
      },
      client: {
        reconnect: k.reconnect,
        accept: k.accept,
        parser: k.parser,
        guards: k.guards,
        reissue: k.reissue,
        protocol: k.newSide === 'server' ? k.clientProtocol : '2026-07-28',
      },
    }),
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
        const run = runWorld({ combination: c, plan, workload, schedule });
        if (run.entries.some((e) => e.kind === 'fault')) faulted++;
        expect(runWorld({ combination: a, plan, workload, schedule }).entries).toEqual(run.entries);
      }),
      { numRuns: 300, seed: 7 },
    );
    // Reached: most draws moved a knob, and most runs met a fault.
    expect(changed).toBeGreaterThan(200);
    expect(faulted).toBeGreaterThan(100);
  });

  it('leaves a combination that speaks 2025-11-25 as it is', () => {
    const c = combination({ server: { reinit: 'pin-first', protocol: 'dual' }, client: { guards: ['probe'], protocol: 'negotiate' } });
    expect(applicableCombination(c)).toBe(c);
  });
});

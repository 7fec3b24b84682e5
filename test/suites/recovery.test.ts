// Liveness of the record-000 mitigations: does the session return to ok once the faults stop? A
// mitigation that turns a silent failure into a permanent outage must show up as one (record 000:
// after a rejected re-initialize "the client must open a new session").
import { describe, expect, it } from 'vitest';
import { combination } from '../../models/policies.ts';
import { kinds, result } from './helpers.ts';
import { ALPHABET_000 as ALPHABET, DOES_NOT_APPLY_000, VULNERABLE_000 } from '../../sim/core/cells.ts';
import { NO_ADDITIONS } from '../../models/additions.ts';

const SEQUENTIAL = { workload: { overlap: false } };

/** Per mitigation cell: does the session recover, and if not, the shrunk plan of the outage. */
const EXPECTED: Record<string, { verdict: 'holds' | 'violated'; faults?: string[]; outcome?: string }> = {
  'server.reinit=reject': { verdict: 'violated', faults: ['http-502'], outcome: 'error' },
  'server.reinit=pin-first': { verdict: 'holds' },
  'server.reinit=idempotent': { verdict: 'holds' },
  'server.streaming=accept-header with client.accept=always': {
    verdict: 'violated',
    faults: ['config-reset', 'http-502'],
    outcome: 'error',
  },
  'client.reconnect=replay-cached': { verdict: 'holds' },
  'client.guards=content-type': { verdict: 'violated', faults: ['config-reset', 'http-502'], outcome: 'error' },
  'client.guards=compare-init': { verdict: 'violated', faults: ['config-reset', 'http-502'], outcome: 'error' },
};

describe('recovery of the record-000 mitigations', () => {
  for (const { name, combination: c } of DOES_NOT_APPLY_000) {
    const want = EXPECTED[name]!;
    it(`${name}: recovers ${want.verdict}`, () => {
      const r = result(c, 'recovers', { faults: ALPHABET, shape: SEQUENTIAL, runs: 300 });
      expect(r.verdict).toBe(want.verdict);
      expect(r.reached).toBeGreaterThan(20);
      if (want.verdict === 'violated') {
        expect(kinds(r)).toEqual(want.faults);
        // Loud: the calls that never recover are errors, not silent ones.
        const after = r.counterexample!.outcomes.slice(1);
        expect(after.some((o) => o.outcome === want.outcome)).toBe(true);
        expect(after.every((o) => o.outcome !== 'silent-empty' && o.outcome !== 'silent-hang')).toBe(true);
      }
    });
  }

  it('the vulnerable cell never recovers either, silently', () => {
    const r = result(VULNERABLE_000, 'recovers', { faults: ALPHABET, shape: SEQUENTIAL, runs: 300 });
    expect(kinds(r)).toEqual(['config-reset', 'http-502']);
    expect(r.counterexample!.outcomes.map((o) => o.outcome)).toContain('silent-empty');
  });

  it('rejecting a re-initialize is clean only if the client then opens a new session (Decision Boundary)', () => {
    const c = combination(
      {
        server: { ...VULNERABLE_000.server, reinit: 'reject' },
        client: { ...VULNERABLE_000.client, reconnect: 'new-session' },
      },
      NO_ADDITIONS,
    );
    for (const property of ['no-silent-empty', 'recovers']) {
      const r = result(c, property, { faults: ALPHABET, shape: SEQUENTIAL, runs: 300 });
      expect(r.verdict, property).toBe('holds');
    }
  });
});

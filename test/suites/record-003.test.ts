// Record 003: a proxy strips Transfer-Encoding on the initialize POST, the session falls back to
// HTTP+SSE, the static capability set still says `streaming-progress`, and a client whose parser is
// bound to that set waits for inline progress that comes as frames, until its deadline.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combination } from '../../models/policies.ts';
import { ALPHABET_003, DOES_NOT_APPLY_003, VULNERABLE_003 } from '../../sim/core/cells.ts';
import { inputs } from '../../sim/search/random/arbitraries.ts';
import { CombinationJudge } from '../../sim/search/random/check.ts';
import { check } from '../../index.ts';
import { call, list } from '../../sim/core/workload.ts';
import { runWorld } from '../../sim/world/world.ts';
import { exhaust, kinds, result, smallWorkloads } from './helpers.ts';
import { DEFAULT_WORLD } from '../../sim/world/world.ts';
import { DEFAULT_CONFIG } from '../../sim/plugins/run-config.ts';
import { NO_ADDITIONS } from '../../models/additions.ts';

const ALPHABET = ALPHABET_003;
const PROGRESS_CALLS = { workload: { overlap: false, progress: 'always' as const } };
const STRIP = [{ fault: 'strip-header:transfer-encoding' as const, at: 0 }];

describe('record 003: a first tool call hangs after a transport downgrade', () => {
  it('is found and shrunk to exactly strip-header:transfer-encoding, with one progress call', () => {
    const r = result(VULNERABLE_003, 'no-silent-hang', { faults: ALPHABET, shape: PROGRESS_CALLS });
    expect(r.verdict).toBe('violated');
    expect(r.counterexample!.faults).toEqual(STRIP);
    expect(r.counterexample!.workload).toEqual([call(true)]);
    expect(r.counterexample!.outcomes).toEqual([{ callId: 0, outcome: 'silent-hang' }]);
  });

  it('shrinks to the same single fault from every seed, also when calls may skip progress', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const r = result(VULNERABLE_003, 'no-silent-hang', { faults: ALPHABET, shape: { workload: { overlap: false } }, seed });
      expect(kinds(r), `seed ${seed}`).toEqual(['strip-header:transfer-encoding']);
      expect(r.counterexample!.workload, `seed ${seed}`).toEqual([call(true)]);
    }
  });

  it('happens as the record tells it: negotiation succeeds, the call completes on the server, the client waits', () => {
    const h = runWorld({ combination: VULNERABLE_003, workload: [call(true)], plan: STRIP }, DEFAULT_WORLD);
    expect(h.entries.find((e) => e.kind === 'client' && e.note === 'session-opened')).toMatchObject({
      caps: ['resources', 'streaming-progress', 'tools', 'tools.streaming'],
      transport: 'sse',
    });
    expect(h.entries.find((e) => e.kind === 'client' && e.note === 'fallback')).toMatchObject({ from: 'streamable-http', to: 'sse' });
    expect(h.entries.filter((e) => e.kind === 'server' && e.note === 'call-finished')).toHaveLength(2);
    expect(h.entries.filter((e) => e.kind === 'client' && e.note === 'awaiting-progress')).toHaveLength(2);
    expect(h.entries.find((e) => e.kind === 'end')).toMatchObject({ end: 'deadline', answer: 'delivered', serverFinished: true });
  });

  it('does not happen to a call that asks for no progress', () => {
    const { runs, reached } = exhaust(VULNERABLE_003, 'no-silent-hang', ALPHABET, smallWorkloads(false), 3);
    expect(reached / runs).toBeGreaterThan(0.5);
  });

  it('reaches its situations in a real fraction of runs', () => {
    const r = check(VULNERABLE_003, { faults: ALPHABET, shape: PROGRESS_CALLS, runs: 200 });
    expect(r.stats.fallbacks).toBeGreaterThan(30);
    expect(r.stats.faultsApplied['strip-header:transfer-encoding']).toBeGreaterThan(30);
    expect(r.results.find((p) => p.property === 'transport-expressible')!.reached).toBeGreaterThan(30);
  });
});

describe('record 003: every "does not apply" condition holds', () => {
  for (const { name, combination: c } of DOES_NOT_APPLY_003) {
    describe(name, () => {
      it('no-silent-hang holds on random plans, most of which reach its situation', () => {
        const judge = new CombinationJudge(c, DEFAULT_CONFIG);
        let reached = 0;
        fc.assert(
          fc.property(inputs({ plan: { faults: ALPHABET }, workload: { overlap: false } }), ([plan, workload, schedule]) => {
            const v = judge.recorded(plan, workload, schedule).judgement.verdicts['no-silent-hang']!;
            expect(v.holds, v.why).toBe(true);
            if (v.reached) reached++;
          }),
          { numRuns: 150 },
        );
        expect(reached).toBeGreaterThan(150 * 0.3);
      });

      it('no-silent-hang holds on every plan of up to 3 faults at requests 0..9', () => {
        const { runs, reached } = exhaust(c, 'no-silent-hang', ALPHABET, smallWorkloads(true), 3);
        expect(reached / runs).toBeGreaterThan(0.5);
      });
    });
  }

  it('the probe makes it loud when the encoding is wrong, and verified when it is right', () => {
    const probePinned = DOES_NOT_APPLY_003[2]!.combination;
    const loud = runWorld({ combination: probePinned, workload: [call(true)], plan: STRIP }, DEFAULT_WORLD);
    expect(
      loud.entries
        .filter((e) => e.kind === 'client' && e.note === 'probe')
        .map((e) => e.kind === 'client' && e.note === 'probe' && e.verdict),
    ).toEqual(['sent', 'mismatch', 'sent', 'mismatch']);
    const end = loud.entries.find((e) => e.kind === 'end');
    expect(end).toMatchObject({ end: 'error' });
    expect(end!.kind === 'end' && end!.end === 'error' && end!.reason).toMatch(/TransportCapabilityMismatch/);

    const probeAdaptive = combination({ client: { parser: 'adaptive', guards: ['probe'] } }, NO_ADDITIONS);
    const verified = runWorld({ combination: probeAdaptive, workload: [call(true), call(true)], plan: STRIP }, DEFAULT_WORLD);
    expect(
      verified.entries
        .filter((e) => e.kind === 'client' && e.note === 'probe')
        .map((e) => e.kind === 'client' && e.note === 'probe' && e.verdict),
    ).toEqual(['sent', 'verified']);
    expect(
      verified.entries.filter((e) => e.kind === 'end').every((e) => e.kind === 'end' && e.end === 'result' && e.content.length > 0),
    ).toBe(true);
  });

  it('a tools/list round-trip does not count as the probe (Decision Boundary)', () => {
    const probePinned = DOES_NOT_APPLY_003[2]!.combination;
    const h = runWorld({ combination: probePinned, workload: [list(), call(true)], plan: STRIP }, DEFAULT_WORLD);
    const listEnd = h.entries.find((e) => e.kind === 'end' && e.callId === 0);
    expect(listEnd).toMatchObject({ end: 'result', content: [{ type: 'text', text: 'work,lookup,probe' }] });
    const afterList = h.entries.slice(h.entries.indexOf(listEnd!));
    expect(afterList.some((e) => e.kind === 'client' && e.note === 'probe' && e.verdict === 'sent')).toBe(true);
    expect(h.entries.find((e) => e.kind === 'end' && e.callId === 1)).toMatchObject({ end: 'error' });
    // Without the guard, the same list round-trip does not save the progress call from hanging.
    const unguarded = runWorld({ combination: VULNERABLE_003, workload: [list(), call(true)], plan: STRIP }, DEFAULT_WORLD);
    expect(unguarded.entries.find((e) => e.kind === 'end' && e.callId === 1)).toMatchObject({ end: 'deadline', answer: 'delivered' });
  });
});

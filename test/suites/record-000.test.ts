// Record 000: a replayed `initialize` built from a reset config narrows a live session's streaming,
// and the pinned SSE parser reads the JSON answers as empty results. The failure, shrunk; each
// "does not apply" condition of the record, holding randomly and exhaustively; vacuity guards.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combination } from '../../models/policies.ts';
import { ALPHABET_000, DOES_NOT_APPLY_000, VULNERABLE_000 } from '../../sim/core/cells.ts';
import { inputs } from '../../sim/search/random/arbitraries.ts';
import { CombinationJudge } from '../../sim/search/random/check.ts';
import { check } from '../../index.ts';
import { call } from '../../sim/core/workload.ts';
import { runWorld } from '../../sim/world/world.ts';
import { exhaust, kinds, result, smallWorkloads } from './helpers.ts';
import { DEFAULT_WORLD } from '../../sim/world/world.ts';
import { DEFAULT_CONFIG } from '../../sim/plugins/run-config.ts';
import { NO_ADDITIONS } from '../../models/additions.ts';

const ALPHABET = ALPHABET_000;
const SEQUENTIAL = { workload: { overlap: false } };

describe('record 000: silent degradation after a capability renegotiation', () => {
  it('is found and shrunk to exactly config-reset then http-502, with one plain call', () => {
    const r = result(VULNERABLE_000, 'no-silent-empty', { faults: ALPHABET, shape: SEQUENTIAL });
    expect(r.verdict).toBe('violated');
    expect(r.counterexample!.faults).toEqual([
      { fault: 'config-reset', at: 0 },
      { fault: 'http-502', at: 2 },
    ]);
    expect(r.counterexample!.workload).toEqual([call()]);
    expect(r.counterexample!.outcomes).toEqual([{ callId: 0, outcome: 'silent-empty' }]);
  });

  it('shrinks to the same two faults from every seed', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const r = result(VULNERABLE_000, 'no-silent-empty', { faults: ALPHABET, shape: SEQUENTIAL, seed, runs: 300 });
      expect(kinds(r), `seed ${seed}`).toEqual(['config-reset', 'http-502']);
      expect(r.counterexample!.workload, `seed ${seed}`).toEqual([call()]);
    }
  });

  it('happens exactly as the record tells it: 502, replayed narrower initialize accepted, JSON read as an empty stream', () => {
    const h = runWorld(
      {
        combination: VULNERABLE_000,
        workload: [call()],
        plan: [
          { fault: 'config-reset', at: 0 },
          { fault: 'http-502', at: 2 },
        ],
      },
      DEFAULT_WORLD,
    );
    const responses = h.entries.filter((e) => e.kind === 'response').map((e) => e.kind === 'response' && `${e.status} ${e.contentType}`);
    expect(responses).toEqual([
      '200 application/json',
      '202 null',
      '502 text/html',
      '200 application/json',
      '202 null',
      '200 application/json',
    ]);
    const reinit = h.entries.find((e) => e.kind === 'server' && e.note === 'reinitialized');
    expect(reinit).toMatchObject({ policy: 'honor-last', caps: ['resources', 'streaming-progress', 'tools'] });
    expect(h.entries.find((e) => e.kind === 'client' && e.note === 'read')).toMatchObject({
      contentType: 'application/json',
      expected: 'sse',
    });
    expect(h.entries.find((e) => e.kind === 'end')).toMatchObject({ end: 'result', content: [] });
  });

  it('needs both faults: neither a 502 nor a config reset alone degrades the session', () => {
    for (const alone of ['http-502', 'config-reset'] as const) {
      const { runs, reached } = exhaust(VULNERABLE_000, 'no-silent-empty', [alone], smallWorkloads(false), 3);
      expect(reached / runs, alone).toBeGreaterThan(0.5);
    }
  });

  it('reaches its situations in a real fraction of runs', () => {
    const r = check(VULNERABLE_000, { faults: ALPHABET, shape: SEQUENTIAL, runs: 200 });
    expect(r.stats.reconnects).toBeGreaterThan(20);
    expect(r.stats.reinitializes).toBeGreaterThan(20);
    expect(r.stats.faultsApplied['http-502']).toBeGreaterThan(20);
    expect(r.stats.faultsApplied['config-reset']).toBeGreaterThan(20);
    expect(r.results.find((p) => p.property === 'no-silent-empty')!.reached).toBeGreaterThan(40);
  });
});

describe('record 000: every "does not apply" condition holds', () => {
  for (const { name, combination: c } of DOES_NOT_APPLY_000) {
    describe(name, () => {
      it('no-silent-empty holds on random plans, most of which reach its situation', () => {
        const judge = new CombinationJudge(c, DEFAULT_CONFIG);
        let reached = 0;
        fc.assert(
          fc.property(inputs({ plan: { faults: ALPHABET }, workload: { overlap: false } }), ([plan, workload, schedule]) => {
            const v = judge.recorded(plan, workload, schedule).judgement.verdicts['no-silent-empty']!;
            expect(v.holds, v.why).toBe(true);
            if (v.reached) reached++;
          }),
          { numRuns: 150 },
        );
        expect(reached).toBeGreaterThan(150 * 0.3);
      });

      it('no-silent-empty holds on every plan of up to 3 faults at requests 0..9', () => {
        const { runs, reached } = exhaust(c, 'no-silent-empty', ALPHABET, smallWorkloads(false), 3);
        expect(runs).toBe(3 * 1 + 3 * 20 + 3 * 210 + 3 * 1540);
        expect(reached / runs).toBeGreaterThan(0.5);
      });

      it('the seed plan still reaches a re-initialize or a fresh handshake, and no call is silent', () => {
        const h = runWorld(
          {
            combination: c,
            workload: [call(), call()],
            plan: [
              { fault: 'config-reset', at: 0 },
              { fault: 'http-502', at: 2 },
            ],
          },
          DEFAULT_WORLD,
        );
        expect(h.entries.some((e) => e.kind === 'client' && e.note === 'reconnect')).toBe(true);
        const ends = h.entries.filter((e) => e.kind === 'end');
        expect(ends.every((e) => e.kind === 'end' && (e.end === 'error' || (e.end === 'result' && e.content.length > 0)))).toBe(true);
      });
    });
  }

  it('where a guard is on, the degraded calls are errors, not silent', () => {
    for (const guard of ['content-type', 'compare-init'] as const) {
      const c = combination({ ...VULNERABLE_000, client: { ...VULNERABLE_000.client, guards: [guard] } }, NO_ADDITIONS);
      const r = check(c, { faults: ALPHABET, shape: SEQUENTIAL, runs: 200 });
      const outcomes = r.results[0]!.outcomes;
      expect(outcomes['silent-empty'], guard).toBe(0);
      expect(outcomes.error, guard).toBeGreaterThan(0);
      const h = runWorld(
        {
          combination: c,
          workload: [call()],
          plan: [
            { fault: 'config-reset', at: 0 },
            { fault: 'http-502', at: 2 },
          ],
        },
        DEFAULT_WORLD,
      );
      const end = h.entries.find((e) => e.kind === 'end');
      expect(end, guard).toMatchObject({ end: 'error' });
      expect(end!.kind === 'end' && end!.end === 'error' && end!.reason, guard).toMatch(
        guard === 'content-type' ? /Content-Type application\/json/ : /CapabilityRenegotiationError/,
      );
    }
  });
});

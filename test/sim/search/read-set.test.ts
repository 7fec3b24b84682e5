// The read-set claim (search/random/read-set.ts) that the finder's memo rests on: a run under a
// tracked combination that did not read knob k runs the same under the combination with k changed:
// the same outcomes, verdicts (every property), stats, reach and history entries. And tracking
// changes nothing of the run itself.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIENT_KNOBS, combination, type Combination, type Guard } from '../../../models/policies.ts';
import { inputs } from '../../../sim/search/random/arbitraries.ts';
import { Judge } from '../../../sim/search/random/check.ts';
import { differing, KNOBS, knobValues, readsDuring, trackable, trackedCombination } from '../../../sim/search/random/read-set.ts';
import { anyCombination, changed } from '../../fixtures/combinations.ts';

const shape = { workload: { overlap: true, lists: true, idempotent: true } };

/** All a run tells: its judgement (every property), stats, reach and history entries. */
function everything(j: Judge, plan: Parameters<Judge['judged']>[0], workload: Parameters<Judge['judged']>[1], schedule: number[]) {
  const judged = j.judged(plan, workload, schedule);
  const recorded = j.recorded(plan, workload, schedule);
  return JSON.stringify({
    judgement: judged.judgement,
    stats: judged.stats,
    coverage: judged.coverage,
    recordedJudgement: recorded.judgement,
    entries: recorded.history.entries,
  });
}

describe('read sets', () => {
  it('a run that did not read a knob runs the same with that knob changed; tracking changes nothing', () => {
    let unread = 0;
    let read = 0;
    const unreadKnobs = new Set<string>();
    fc.assert(
      fc.property(
        anyCombination,
        inputs(shape),
        fc.nat({ max: KNOBS.length - 1 }),
        fc.nat(),
        fc.subarray([...CLIENT_KNOBS.guards.values] as Guard[]),
        (c, [plan, workload, schedule], k, pick, guards) => {
          const other = changed(c, k, pick, guards);
          const bit = differing(knobValues(c), knobValues(other));
          if (bit === 0) return;
          // A judge of its own each time: its reference's reads must be counted too.
          const tracked = new Judge(c, {}, undefined, true, true);
          const [said, reads] = readsDuring(() => everything(tracked, plan, workload, schedule));
          expect(said).toBe(everything(new Judge(c), plan, workload, schedule));
          if (reads & bit) {
            read++;
            return;
          }
          unread++;
          unreadKnobs.add(KNOBS[k]!);
          expect(everything(new Judge(other), plan, workload, schedule)).toBe(said);
        },
      ),
      { numRuns: 400, seed: 71 },
    );
    // Reached: many changed knobs the run never read (of several kinds), and many it did.
    expect(unread).toBeGreaterThan(80);
    expect(unreadKnobs.size).toBeGreaterThan(4);
    expect(read).toBeGreaterThan(80);
  });

  it('a tracked combination serializes as the plain one and counts a spread as reading every field', () => {
    const c = combination({ server: { reinit: 'pin-first' }, client: { guards: ['probe', 'content-type'] } });
    expect(trackable(c)).toBe(true);
    const t = trackedCombination(c);
    const [text, all] = readsDuring(() => JSON.stringify(t));
    expect(text).toBe(JSON.stringify(c));
    expect(all).toBe((1 << KNOBS.length) - 1);
    const [, one] = readsDuring(() => t.client.parser);
    expect(KNOBS.filter((_, i) => one & (1 << i))).toEqual(['client.parser']);
    // Nested scopes: the inner reads count for the outer one too.
    const [[, inner], outer] = readsDuring(() => {
      void t.server.reinit;
      return readsDuring(() => t.client.reissue);
    });
    expect(inner).toBe(1 << KNOBS.indexOf('client.reissue'));
    expect(outer).toBe(inner | (1 << KNOBS.indexOf('server.reinit')));
    expect(trackable({ server: { ...c.server, extra: 1 }, client: c.client } as unknown as Combination)).toBe(false);
  });
});

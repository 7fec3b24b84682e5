// `server.idempotency` (a proposal knob, the closed SEP-3182): the record's G1 input, a connection
// reset on the tools/call's response, runs the tool twice on the server as published and once on a
// server that answers a re-sent call by its request key, with the same result reaching the agent, in
// the same session or a new one.
import { describe, expect, it } from 'vitest';
import { combination, type Combination } from '../../models/policies.ts';
import { NO_ADDITIONS } from '../../models/additions.ts';
import { DEFAULT_WORLD, runWorld, runWorldReading } from '../../sim/world/world.ts';
import { knobsOf } from '../../sim/world/knob-reads.ts';
import type { HistoryEntry } from '../../sim/core/history.ts';

const plan = [{ fault: 'connection-reset', at: 2 }] as const;
const workload = [{ method: 'tools/call', progress: false, overlap: false }] as const;

function run(server: Record<string, string>, client: Record<string, string> = {}) {
  const c: Combination = combination({ server, client } as Parameters<typeof combination>[0], NO_ADDITIONS);
  return runWorld({ combination: c, plan: [...plan], workload: [...workload] }, DEFAULT_WORLD).entries as (HistoryEntry &
    Record<string, unknown>)[];
}

const runsOfCall0 = (h: ReturnType<typeof run>) =>
  h.filter((e) => e.kind === 'server' && e.note === 'call-finished' && e.callId === 0).length;
const result = (h: ReturnType<typeof run>) => h.filter((e) => e.kind === 'end').map((e) => [e.end, JSON.stringify(e.content)]);

describe('server.idempotency', () => {
  it('as published (none), the retry after the reset runs the tool a second time', () => {
    expect(runsOfCall0(run({ idempotency: 'none' }))).toBe(2);
  });

  for (const reconnect of ['replay-mutable', 'new-session']) {
    it(`request-key runs it once and answers the retry with the same result (client.reconnect=${reconnect})`, () => {
      const once = run({ idempotency: 'request-key' }, { reconnect });
      const twice = run({ idempotency: 'none' }, { reconnect });
      expect(runsOfCall0(once)).toBe(1);
      expect(result(once)).toEqual(result(twice));
      expect(result(once)[0]?.[0]).toBe('result');
    });
  }

  it('changes nothing where no call is sent twice', () => {
    const clean = (idempotency: string) =>
      runWorld(
        { combination: combination({ server: { idempotency } } as never, NO_ADDITIONS), plan: [], workload: [...workload] },
        DEFAULT_WORLD,
      ).entries;
    expect(JSON.stringify(clean('request-key'))).toBe(JSON.stringify(clean('none')));
  });

  // The run store shares a run between the two values where the run did not read the knob: the server
  // keeps its record of run calls under both, and reads the knob only when a call comes again.
  it('is read only where a call comes again, under either value', () => {
    const reads = (idempotency: string, faults: typeof plan | []) =>
      knobsOf(
        runWorldReading(
          { combination: combination({ server: { idempotency } } as never, NO_ADDITIONS), plan: [...faults], workload: [...workload] },
          DEFAULT_WORLD,
        ).reads,
      );
    for (const value of ['none', 'request-key']) {
      expect(reads(value, [])).not.toContain('server.idempotency');
      expect(reads(value, plan)).toContain('server.idempotency');
    }
  });
});

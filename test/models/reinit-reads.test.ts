// A re-initialize reads `server.advertise` only under a `server.reinit` strategy that reads it
// (honor-last, idempotent): under reject, pin-first and new-session the run does not depend on it,
// and the run store shares the run between both advertise values (models/server-sessions.ts).
import { describe, expect, it } from 'vitest';
import { NO_ADDITIONS } from '../../models/additions.ts';
import { combination } from '../../models/policies.ts';
import { knobsOf } from '../../sim/world/knob-reads.ts';
import { DEFAULT_WORLD, runWorld, runWorldReading } from '../../sim/world/world.ts';

// A config reset, then a 502 on the first call: the client replays its handshake on the live session.
const plan = [
  { fault: 'config-reset', at: 0 },
  { fault: 'http-502', at: 2 },
] as const;
const workload = [
  { method: 'tools/call', progress: false, overlap: false },
  { method: 'tools/call', progress: false, overlap: false },
] as const;
const input = (reinit: string, advertise: string) => ({
  combination: combination({ server: { reinit, advertise }, client: { reconnect: 'replay-mutable' } } as never, NO_ADDITIONS),
  plan: [...plan],
  workload: [...workload],
});

describe('server.advertise on a re-initialize', () => {
  for (const [reinit, reads] of [
    ['reject', false],
    ['pin-first', false],
    ['honor-last', true],
  ] as const) {
    it(`is ${reads ? '' : 'not '}read under server.reinit=${reinit}`, () => {
      const run = runWorldReading(input(reinit, 'static'), DEFAULT_WORLD);
      const reinitialized = run.history.entries.filter((e) => e.kind === 'server' && /^reinit/.test(String((e as { note?: string }).note)));
      expect(reinitialized.length).toBe(1); // reached: the server met the second handshake
      expect(knobsOf(run.reads).includes('server.advertise')).toBe(reads);
      if (!reads) {
        const other = runWorld(input(reinit, 'per-transport'), DEFAULT_WORLD);
        expect(JSON.stringify(other.entries)).toBe(JSON.stringify(run.history.entries));
      }
    });
  }
});

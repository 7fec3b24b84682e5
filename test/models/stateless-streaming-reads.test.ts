// A 2026-07-28 server decides per request whether to stream (`server.streaming`: by the request's
// Accept or by the capabilities in its _meta). Where the two agree, the run does not depend on the
// knob, does not count it, and both values run it the same (the run store then shares it:
// models/server-stateless.ts). Where they disagree, the knob decides and is counted.
import { describe, expect, it } from 'vitest';
import { NO_ADDITIONS } from '../../models/additions.ts';
import { combination } from '../../models/policies.ts';
import { knobsOf } from '../../sim/world/knob-reads.ts';
import { DEFAULT_WORLD, runWorld, runWorldReading } from '../../sim/world/world.ts';

const workload = [{ method: 'tools/call', progress: false, overlap: false }] as const;
const input = (streaming: string, accept: string, plan: { fault: string; at: number }[] = []) => ({
  combination: combination(
    { server: { protocol: '2026-07-28', streaming }, client: { protocol: '2026-07-28', accept } } as never,
    NO_ADDITIONS,
  ),
  plan: plan as never,
  workload: [...workload],
});
const served = (h: { entries: readonly unknown[] }) =>
  h.entries.filter((e) => (e as { note?: string }).note === 'call-finished' && (e as { session?: string }).session === '-').length;

describe('server.streaming on a 2026-07-28 tools/call', () => {
  it('is not read where the Accept and the capabilities agree, and both values run alike', () => {
    const run = runWorldReading(input('negotiated', 'from-config'), DEFAULT_WORLD);
    expect(served(run.history)).toBe(1); // reached: the stateless server served the call
    expect(knobsOf(run.reads)).not.toContain('server.streaming');
    const other = runWorld(input('accept-header', 'from-config'), DEFAULT_WORLD);
    expect(JSON.stringify(other.entries)).toBe(JSON.stringify(run.history.entries));
  });

  it('is read where they disagree (a proxy strips the Accept; the capabilities still declare streaming)', () => {
    const run = runWorldReading(input('negotiated', 'always', [{ fault: 'strip-header:accept', at: 0 }]), DEFAULT_WORLD);
    expect(served(run.history)).toBe(1);
    expect(knobsOf(run.reads)).toContain('server.streaming');
  });
});

// The saved counterexamples are regression tests: every file in test/corpus/ must replay
// identically (the same history, outcomes and verdicts). Add one with `check --save`.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCounterexample } from '../../sim/corpus/counterexample-parse.ts';
import { loadPolicies } from '../../sim/plugins/policy-module.ts';
import { replay } from '../../sim/corpus/replay.ts';

const dir = new URL('../corpus/', import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('the counterexample corpus', () => {
  it("holds the records' findings", () => {
    const all = files.map((f) => parseCounterexample(readFileSync(new URL(f, dir), 'utf8')));
    const plans = all.map((f) => JSON.stringify(f.plan));
    expect(plans).toContain(
      JSON.stringify([
        { fault: 'config-reset', at: 0 },
        { fault: 'http-502', at: 2 },
      ]),
    );
    expect(plans).toContain(JSON.stringify([{ fault: 'strip-header:transfer-encoding', at: 0 }]));
    expect(all.some((f) => f.kind === 'policy-error')).toBe(true);
  });

  for (const name of files) {
    it(`${name} replays identically`, async () => {
      const file = parseCounterexample(readFileSync(new URL(name, dir), 'utf8'));
      const r = replay(file, await loadPolicies(file.policies));
      expect(r.differences).toEqual([]);
      expect(r.reproduced).toBe(true);
    });
  }
});

// The refactor's safety net: the same commands give the same JSON as main did before it
// (test/golden/golden.ts says which commands, and what changed them since).
import { describe, expect, it } from 'vitest';
import { goldenCases, readGolden, runGolden } from './golden.ts';

describe('golden outputs (compare seed 3, compare --depth 2, check --json of every seed cell)', () => {
  for (const c of goldenCases()) {
    it(`${c.file}: ${c.argv.filter((a) => !a.startsWith('/')).join(' ')}`, async () => {
      const want = readGolden(c.file);
      const got = await runGolden(c);
      expect(got.stderr).toBe('');
      expect(got.code).toBe(want.code);
      expect(got.json).toEqual(want.json);
      // compare --depth 2 takes ~50 s alone and over 160 s on a loaded machine: a bound, not a speed test.
    }, 600_000);
  }
});

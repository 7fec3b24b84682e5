// A group's "how" and its mechanism never contradict each other (issue 29): a group is silent exactly
// when its mechanism is one by which something went silent, and a group silent by a tool that ran twice
// says so ("… ran the tool again (duplicate execution)") instead of "calls fail loudly". Over every group
// of the default and the full matrices, as a user runs them. The full matrix is run once per test run
// (test/fixtures/default-comparison.ts) and read only here: ~30–40 s of CPU.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Comparison } from '../../sim/compare/compare.ts';
import { groupsOf } from '../../reports/compare-causes.ts';
import { defaultComparison, sharedComparison } from '../fixtures/default-comparison.ts';

/** The mechanisms by which something went silent (a call's outcome, or a tool that ran twice): a
 *  finding of one is in a silent group, and a group of any other is loud. */
const SILENT_MECHANISMS: readonly string[] = [
  'cut-stream-read-empty',
  'json-read-as-sse-after-narrowing',
  'json-read-as-sse',
  'different-result',
  'inline-progress-awaited-on-sse',
  'cut-stream-hang',
  'hang',
  'duplicate-execution',
];

const LOUD_WORDS = /^calls fail loudly|violated while every call was ok/;

function checkGroups(dir: string): { silent: number; duplicate: number; loud: number } {
  const c = JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8')) as Comparison;
  const groups = groupsOf(c);
  expect(groups.length).toBeGreaterThan(10);
  for (const g of groups) {
    const what = `${g.label} ${g.signature}`;
    expect(g.silent, what).toBe(SILENT_MECHANISMS.includes(g.mechanism));
    if (g.silent) expect(g.how, what).not.toMatch(LOUD_WORDS);
    if (g.mechanism === 'duplicate-execution') expect(g.how, what).toMatch(/ran the tool again \(duplicate execution\)$/);
  }
  return {
    silent: groups.filter((g) => g.silent).length,
    duplicate: groups.filter((g) => g.mechanism === 'duplicate-execution').length,
    loud: groups.filter((g) => !g.silent).length,
  };
}

describe('what a cause group says went wrong', () => {
  it('agrees with whether the group is silent, over every group of the default matrix', async () => {
    const n = checkGroups((await defaultComparison()).dir);
    // Reached: silent groups, loud ones, and groups silent only by a duplicate execution.
    expect(n.silent).toBeGreaterThan(5);
    expect(n.loud).toBeGreaterThan(3);
    expect(n.duplicate).toBeGreaterThanOrEqual(3);
  }, 300_000);

  it('agrees with whether the group is silent, over every group of the full matrix', async () => {
    const n = checkGroups((await sharedComparison('--matrix', 'full')).dir);
    expect(n.silent).toBeGreaterThan(10);
    expect(n.duplicate).toBeGreaterThanOrEqual(3);
  }, 600_000);
});

// Every failure class counted in the cell's row (issue 39): beside the calls (ok / loud / silent), the
// runs with a silent failure no call's outcome shows — a tool that ran twice (`+Nd`, at-most-once) and
// a session whose capabilities changed without a reset (`+Nc`, caps-immutable) — so that no cell reads
// silent with nothing silent counted, in the terminal, the Markdown and the HTML.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultComparison } from '../fixtures/default-comparison.ts';
import { CALL_COUNTS_LEGEND, callCounts, callCountsText } from '../../reports/compare-common.ts';
import type { CellResult } from '../../sim/compare/cell-result.ts';
import type { Comparison } from '../../sim/compare/compare.ts';

type Result = CellResult['results'][number];
const outcomes = { ok: 100, error: 3, 'silent-empty': 0, 'silent-hang': 0 };
const result = (property: string, violations: number): Result =>
  ({ property, outcomes, reached: 10, violations, verdict: violations ? 'violated' : 'holds', counterexample: null }) as unknown as Result;
const cell = (results: Result[]) => ({ results }) as unknown as CellResult;

describe("a cell's row", () => {
  it('counts a capability change where it is the only silent failure', () => {
    const c = cell([result('no-silent-empty', 0), result('caps-immutable', 5), result('at-most-once', 0)]);
    expect(callCounts(c)).toEqual({ ok: 100, loud: 3, silent: 0, twice: 0, capsChanged: 5 });
    expect(callCountsText(c)).toBe('100/3/0+5c');
  });

  it('counts a duplicate and a capability change apart, and nothing where neither happened', () => {
    expect(callCountsText(cell([result('no-silent-empty', 0), result('caps-immutable', 5), result('at-most-once', 2)]))).toBe(
      '100/3/0+2d+5c',
    );
    expect(callCountsText(cell([result('no-silent-empty', 0), result('caps-immutable', 0), result('at-most-once', 0)]))).toBe('100/3/0');
  });

  it('has a legend that says what each count means', () => {
    expect(CALL_COUNTS_LEGEND).toMatch(/\+Nd = runs in which a tool ran twice/);
    expect(CALL_COUNTS_LEGEND).toMatch(/\+Nc = runs in which a session's capabilities changed without a reset/);
  });
});

describe('the default comparison', () => {
  let c: Comparison;
  let stdout: string;
  let md: string;
  let html: string;
  beforeAll(async () => {
    const r = await defaultComparison();
    stdout = r.stdout;
    c = JSON.parse(readFileSync(join(r.dir, 'compare.json'), 'utf8'));
    md = readFileSync(join(r.dir, 'compare.md'), 'utf8');
    html = readFileSync(join(r.dir, 'compare.html'), 'utf8');
  }, 300_000);

  it('never reads silent with nothing silent counted', () => {
    const silent = c.cells.filter((x) => x.class === 'silent');
    expect(silent.length).toBeGreaterThan(10);
    for (const x of silent) {
      const n = callCounts(x);
      expect(n.silent + n.twice + n.capsChanged, x.name).toBeGreaterThan(0);
    }
    // Those whose calls all came back right (a duplicate is their silent failure) show it in every report.
    const quiet = silent.filter((x) => callCounts(x).silent === 0);
    expect(quiet.length).toBeGreaterThan(0);
    for (const x of quiet) {
      const text = callCountsText(x);
      expect(text).toMatch(/\/0\+\d+d/);
      expect(stdout).toContain(text);
      expect(md).toContain(callCountsText(x, ' / '));
    }
  });

  it("counts the capability change of record 000's compare-init cell, which its guard turned loud", () => {
    const x = c.cells.find(
      (y) =>
        y.name === 'record 000: client.guards=compare-init · record alphabet' ||
        y.name === 'record 000: client.guards=compare-init · record alphabet',
    )!;
    expect(x.class).toBe('loud, never recovers');
    const n = callCounts(x);
    expect([n.silent, n.twice]).toEqual([0, 0]);
    expect(n.capsChanged).toBeGreaterThan(0);
    expect(stdout).toContain(callCountsText(x));
    expect(html).toContain(`>0 +${n.capsChanged}c</td>`);
  });
});

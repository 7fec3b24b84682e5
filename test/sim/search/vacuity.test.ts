// Vacuity is decided once (properties/vacuity.ts) and carried as a verdict: the random check and the
// exhaustive search both say 'vacuous' for a property whose situation no run reached, and the
// reports show what the verdict says (never decoding it from counts or from a mark).
import { describe, expect, it } from 'vitest';
import { ALPHABET_000, VULNERABLE_000 } from '../../../sim/core/cells.ts';
import { runComparison, singleCell } from '../../../sim/compare/compare.ts';
import { propertyByName } from '../../../properties/properties.ts';
import { decideVerdict } from '../../../properties/vacuity.ts';
import { verdictCell } from '../../../reports/compare-common.ts';
import { renderHtml } from '../../../reports/compare-html.ts';
import { renderSummary } from '../../../reports/compare-text.ts';
import { exploreCombination } from '../../../sim/search/exhaustive/exhaustive.ts';
import { runConfig } from '../../../sim/plugins/run-config.ts';

// Seed 000's faults never move a session off Streamable HTTP: transport-expressible is never reached.
const unreached = propertyByName('transport-expressible')!;
const reached = propertyByName('caps-immutable')!;

describe('vacuity, decided once', () => {
  it('violated beats everything; holds needs its situation reached', () => {
    expect(decideVerdict({ violated: true, reached: false })).toBe('violated');
    expect(decideVerdict({ violated: false, reached: true })).toBe('holds');
    expect(decideVerdict({ violated: false, reached: false })).toBe('vacuous');
  });

  it('the exhaustive search carries it as its verdict', () => {
    const e = exploreCombination(VULNERABLE_000, { faults: ALPHABET_000, depth: 1 }, runConfig({ properties: [unreached, reached] }));
    const [u, r] = e.results;
    expect(u).toMatchObject({ property: 'transport-expressible', verdict: 'vacuous', reached: false, shortest: null });
    expect(r).toMatchObject({ property: 'caps-immutable', verdict: 'holds', reached: true }); // it takes two faults
  });

  it('the random check carries it, and the reports read it', async () => {
    const c = await runComparison(
      { cells: [singleCell(VULNERABLE_000, ALPHABET_000)], kind: 'records', cut: { server: {}, client: {} }, size: 1 },
      runConfig({ seed: 1, runs: 40, properties: [unreached, reached] }),
    );
    const cell = c.cells[0]!;
    expect(cell.results.map((r) => [r.property, r.verdict, r.reached > 0])).toEqual([
      ['transport-expressible', 'vacuous', false],
      ['caps-immutable', 'violated', true],
    ]);
    expect(verdictCell(cell, 'transport-expressible')).toMatchObject({ kind: 'vacuous', mark: '◌' });
    expect(verdictCell(cell, 'caps-immutable')).toMatchObject({ kind: 'violated', mark: '❌', violations: cell.results[1]!.violations });
    expect(renderHtml(c, 10)).toMatch(/<td class="v vvacuous" data-sort="1" title="vacuous: never reached">vacuous<\/td>/);
    expect(renderSummary(c)).toMatch(/\bvac\b.*\bFAIL\b/);
  });
});

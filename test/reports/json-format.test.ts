// The reports' JSON layout: a value that fits the line's width (120 columns, its indent counted)
// stays on one line as JSON.stringify writes it, anything larger is indented; written in pieces,
// it is the same text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatJson, writeJson } from '../../reports/json-format.ts';

/** A value whose one-line JSON is exactly `n` characters long: ["xx…x"]. */
const ofLength = (n: number) => [`${'x'.repeat(n - 4)}`];

describe('formatJson', () => {
  it('keeps a value on one line up to the width, its indent counted, and indents one a character longer', () => {
    expect(formatJson(ofLength(120))).toBe(JSON.stringify(ofLength(120)));
    expect(formatJson(ofLength(121))).toBe(`[\n  ${JSON.stringify(ofLength(121)[0])}\n]`);
    // Inside an object, at indent 2: 118 columns fit, 119 do not.
    const fits = formatJson({ a: ofLength(118), pad: 'y'.repeat(120) });
    expect(fits.split('\n')[1]).toBe(`  "a": ${JSON.stringify(ofLength(118))},`);
    const over = formatJson({ a: ofLength(119), pad: 'y'.repeat(120) });
    expect(over.split('\n')[1]).toBe('  "a": [');
  });

  it('measures what JSON.stringify writes: undefined dropped in objects, null in arrays, escapes, toJSON', () => {
    const odd = { u: undefined, f: () => 1, a: [undefined, () => 1, Number.NaN, -0, 1e21], s: 'é→"\\\n', d: new Date(0), e: {} };
    for (const width of [0, 10, 60, 100])
      for (const v of [odd, [odd], { pad: 'p'.repeat(width), odd }]) {
        const text = formatJson(v);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
        for (const line of text.split('\n')) if (!line.trimStart().startsWith('"pad"')) expect(line.length).toBeLessThanOrEqual(140);
      }
  });

  it('writes in pieces the text formatJson returns, and that text parses back to the value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (v) => {
        const pieces: string[] = [];
        writeJson(v, (p) => pieces.push(p));
        const text = formatJson(v);
        expect(pieces.join('')).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
        if (JSON.stringify(v).length <= 120) expect(text).toBe(JSON.stringify(v));
        else expect(text).toContain('\n');
      }),
      { numRuns: 300, seed: 3 },
    );
  });
});

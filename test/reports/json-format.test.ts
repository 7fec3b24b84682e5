// The reports' JSON layout: a value that fits the line's width (120 columns, its indent counted)
// stays on one line as JSON.stringify writes it, anything larger is indented; written in pieces,
// it is the same text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatJson, writeJson } from '../../reports/json-format.ts';

/** The layout by its definition, slowly: a value whose JSON.stringify fits the width left at its indent is
 *  that one line; else each element or key on a line of its own, what JSON.stringify drops left out. */
function reference(value: unknown, indent = ''): string {
  const flat = JSON.stringify(value) ?? 'null';
  if (value === null || typeof value !== 'object' || flat.length <= 120 - indent.length || flat[0] !== (Array.isArray(value) ? '[' : '{'))
    return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value))
    return value.length === 0 ? '[]' : `[\n${Array.from(value, (v) => inner + reference(v, inner)).join(',\n')}\n${indent}]`;
  const kept = Object.entries(value).filter(([, v]) => JSON.stringify(v) !== undefined);
  return kept.length === 0
    ? '{}'
    : `{\n${kept.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${reference(v, inner)}`).join(',\n')}\n${indent}}`;
}

/** Values JSON.stringify treats apart: escapes, lone surrogates, what it drops or nulls, holes, toJSON. */
const oddValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0001', '\ud800', '\udc00', 'é', 'x') })),
    fc.double(),
    fc.boolean(),
    fc.constantFrom(null, undefined, () => 1, Symbol('s'), new Date(0)),
    fc.array(tie('value'), { maxLength: 12 }),
    fc.sparseArray(tie('value'), { maxLength: 6 }),
    fc.dictionary(fc.string({ unit: 'binary', maxLength: 8 }), tie('value'), { maxKeys: 10 }),
  ),
})).value;

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

  it('lays out any value as its definition does (every width, escapes, dropped and null values, holes, toJSON)', () => {
    fc.assert(
      fc.property(oddValue, fc.constantFrom('', '  ', ' '.repeat(60), ' '.repeat(119)), (v, indent) => {
        expect(formatJson(v, indent)).toBe(reference(v, indent));
      }),
      { numRuns: 2000, seed: 11 },
    );
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

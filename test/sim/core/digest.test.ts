// core/digest.ts: a value's digest is equal for equal JSON texts and different for different ones.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { digestOf, freshDigestOf, Place, type Digest } from '../../../sim/core/digest.ts';

const text = (d: Digest) => `${d.hi}:${d.lo}`;

/** Plain data as contexts hold it, with what JSON drops or rewrites: undefined, -0, NaN, functions. */
const data = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, true, false, null, undefined),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.string({ maxLength: 3 }), tie('value'), { maxKeys: 4 }),
})).value;

describe('digest', () => {
  it('is equal when JSON texts are equal (a value and its JSON round trip, as kept and afresh)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(data), fc.dictionary(fc.string(), data)), (v) => {
        const copy = JSON.parse(JSON.stringify(v)) as object;
        expect(text(digestOf(v))).toBe(text(digestOf(copy)));
        expect(text(freshDigestOf(v))).toBe(text(digestOf(v)));
      }),
    );
  });

  it('differs when JSON texts differ, over random values and over near-identical ones', () => {
    const byDigest = new Map<string, string>();
    const record = (o: object) => {
      const json = JSON.stringify(o);
      const d = text(digestOf(o));
      const known = byDigest.get(d);
      if (known !== undefined) expect(known).toBe(json);
      byDigest.set(d, json);
    };
    fc.assert(
      fc.property(fc.array(data), (v) => record(v)),
      { numRuns: 2000 },
    );
    // Structures that differ in one small place: swapped fields, a number in place of its string,
    // one character, one nesting level, a shift between neighbouring strings.
    for (let i = 0; i < 200; i++)
      for (let j = 0; j < 50; j++) {
        record({ a: i, b: j });
        record({ b: i, a: j });
        record([i, String(j)]);
        record([String(i), j]);
        record([[i], j]);
        record([`${i}x`, `${j}`]);
        record([`${i}`, `x${j}`]);
      }
    expect(byDigest.size).toBeGreaterThan(60_000);
  });

  it('gives a new object that shares parts with an older one its own digest, the one computed afresh', () => {
    const shared = { session: { id: 's1', caps: [1, 2] }, inflight: {} };
    const a = { ...shared, nextReq: 3 };
    const b = { ...shared, nextReq: 4 };
    expect(text(digestOf(a))).not.toBe(text(digestOf(b)));
    expect(text(digestOf(a))).toBe(text(freshDigestOf(a)));
    expect(text(digestOf({ ...a }))).toBe(text(digestOf(a)));
  });

  it("Place gives digestOf's digest, its parts by their places, whether the objects there are the last ones, new, or new around old parts", () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string({ maxLength: 3 }), data, { maxKeys: 5 }), { minLength: 1, maxLength: 6 }), (objects) => {
        const place = new Place();
        // Objects in turn at one place, as a machine's contexts are from state to state: some met twice
        // in a row, some copies (new objects), some new objects that share the last one's parts.
        let last: Record<string, unknown> = {};
        for (const o of objects.flatMap((o, i) => (i % 2 ? [o, o] : [o]))) {
          const copy = JSON.parse(JSON.stringify(o)) as Record<string, unknown>;
          expect(text(place.of(o))).toBe(text(freshDigestOf(o)));
          expect(text(place.of(copy))).toBe(text(freshDigestOf(o)));
          const sharing = { ...last, ...copy, tail: [last, copy] };
          expect(text(place.of(sharing))).toBe(text(freshDigestOf(sharing)));
          last = o;
        }
      }),
    );
    // A place that holds an object answers it without hashing again (the same digest object), and a new one there is hashed anew.
    const place = new Place();
    const a = { x: [1, 2, 3] };
    const b = { x: [1, 2, 4] };
    expect(place.of(a)).toBe(place.of(a));
    expect(text(place.of(b))).toBe(text(freshDigestOf(b)));
    expect(text(place.of(b))).not.toBe(text(freshDigestOf(a)));
    // A part met at its place again, inside a new object whose other part changed.
    const c = { x: a.x, y: 'z' };
    expect(text(place.of(c))).toBe(text(freshDigestOf(c)));
    expect(text(place.of({ ...c, x: b.x }))).toBe(text(freshDigestOf({ ...c, x: b.x })));
  });

  it('gives a string the same digest whether its own digest was kept or not (its store full), and strings around the inline length their own', async () => {
    // Values with strings of every length around SHORT_STRING, as names and as values.
    const values = Array.from({ length: 12 }, (_, n) => {
      const s = 'abcdefghijkl'.slice(0, n);
      return { [s]: s, list: [s, `${s}!`], n };
    });
    const digests = async (fill: boolean) => {
      vi.resetModules();
      const fresh = await import('../../../sim/core/digest.ts');
      // Past the store's bound (2^16 strings), nothing new is kept: each value's strings are hashed afresh.
      if (fill) for (let i = 0; i < 70_000; i++) fresh.digestOf([`filler string ${i}`]);
      return values.map((v) => text(fresh.digestOf(v)));
    };
    const kept = await digests(false);
    expect(await digests(true)).toEqual(kept);
    expect(new Set(kept).size).toBe(values.length);
    expect(kept).toEqual(values.map((v) => text(freshDigestOf(JSON.parse(JSON.stringify(v)) as object))));
  });
});

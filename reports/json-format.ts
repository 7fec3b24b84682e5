// JSON for people and diffs: an object or array that fits on one line stays on one line (a history
// entry, a plan step), anything larger is indented. Deterministic: key order is the data's own.
//
// Written in pieces (`writeJson`), so that a full matrix's report (tens of MB) never exists as one
// string, and whether a value fits is measured with a walk that stops at the line's width: stringifying
// every level whole to measure it was quadratic in the depth and held a copy of the report per level.
// The walk counts characters without making strings (a string that needs no escape is its length and
// two quotes, a number its digits): writing the full matrix's 60 MB compare.json took 0.60 → 0.44 s of
// CPU, median of 5 alternating with the build before it, the same text (test/reports/json-format.test.ts).
const WIDTH = 120;

/** `value` formatted, as one string. */
export function formatJson(value: unknown, indent = ''): string {
  const out: string[] = [];
  writeJson(value, (s) => out.push(s), indent);
  return out.join('');
}

/** `formatJson(value)`, handed to `write` in pieces, in order. */
export function writeJson(value: unknown, write: (piece: string) => void, indent = ''): void {
  if (
    value === null ||
    typeof value !== 'object' ||
    hasToJson(value) ||
    flatLength(value, WIDTH - indent.length) <= WIDTH - indent.length
  ) {
    write(JSON.stringify(value) ?? 'null');
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return write('[]');
    write('[\n');
    for (let i = 0; i < value.length; i++) {
      write(i === 0 ? inner : `,\n${inner}`);
      writeJson(value[i], write, inner);
    }
    write(`\n${indent}]`);
    return;
  }
  let first = true;
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    const v = (value as Record<string, unknown>)[k];
    if (dropped(v)) continue;
    write(`${first ? '{\n' : ',\n'}${inner}${JSON.stringify(k)}: `);
    writeJson(v, write, inner);
    first = false;
  }
  write(first ? '{}' : `\n${indent}}`);
}

/** Whether JSON.stringify drops the value (in an object) or writes null for it (in an array). */
const dropped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

const hasToJson = (value: object) => 'toJSON' in value && typeof value.toJSON === 'function';

/** A character JSON.stringify writes as an escape: a quote, a backslash, a control character, a surrogate. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes.
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** The length of `JSON.stringify(s)`. */
const stringLength = (s: string) => (ESCAPED.test(s) ? JSON.stringify(s).length : s.length + 2);

/** The length of `JSON.stringify(value)`, or some length past `budget` once it is known to exceed it. */
function flatLength(value: unknown, budget: number): number {
  switch (typeof value) {
    case 'string':
      return stringLength(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      if (value === null) return 4;
      if (hasToJson(value)) return (JSON.stringify(value) ?? '').length;
      break;
    default:
      return (JSON.stringify(value) ?? 'null').length;
  }
  let n = 2; // the brackets
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && n <= budget; i++) {
      const v = value[i];
      n += (i > 0 ? 1 : 0) + (dropped(v) ? 4 : flatLength(v, budget - n));
    }
    return n;
  }
  let first = true;
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    const v = (value as Record<string, unknown>)[k];
    if (dropped(v)) continue;
    n += (first ? 0 : 1) + stringLength(k) + 1 + flatLength(v, budget - n);
    first = false;
    if (n > budget) return n;
  }
  return n;
}

// JSON for people and diffs: an object or array that fits on one line stays on one line (a history
// entry, a plan step), anything larger is indented. Deterministic: key order is the data's own.
//
// Written in pieces (`writeJson`), so that a full matrix's report (tens of MB) never exists as one
// string, and whether a value fits is measured with a walk that stops at the line's width: stringifying
// every level whole to measure it was quadratic in the depth and held a copy of the report per level.
const WIDTH = 120;

/** `value` formatted, as one string. */
export function formatJson(value: unknown, indent = ''): string {
  const out: string[] = [];
  writeJson(value, (s) => out.push(s), indent);
  return out.join('');
}

/** `formatJson(value)`, handed to `write` in pieces, in order. */
export function writeJson(value: unknown, write: (piece: string) => void, indent = ''): void {
  if (value === null || typeof value !== 'object') {
    write(JSON.stringify(value) ?? 'null');
    return;
  }
  if (flatLength(value, WIDTH - indent.length) <= WIDTH - indent.length) {
    write(JSON.stringify(value) ?? 'null');
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return write('[]');
    write('[\n');
    value.forEach((v, i) => {
      write(i === 0 ? inner : `,\n${inner}`);
      writeJson(v, write, inner);
    });
    write(`\n${indent}]`);
    return;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return write('{}');
  write('{\n');
  entries.forEach(([k, v], i) => {
    write(`${i === 0 ? '' : ',\n'}${inner}${JSON.stringify(k)}: `);
    writeJson(v, write, inner);
  });
  write(`\n${indent}}`);
}

/** Whether JSON.stringify drops the value (in an object) or writes null for it (in an array). */
const dropped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/** The length of `JSON.stringify(value)`, or some length past `budget` once it is known to exceed it. */
function flatLength(value: unknown, budget: number): number {
  if (value === null || typeof value !== 'object') return (JSON.stringify(value) ?? 'null').length;
  if ('toJSON' in value && typeof value.toJSON === 'function') return (JSON.stringify(value) ?? '').length;
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
    n += (first ? 0 : 1) + JSON.stringify(k).length + 1 + flatLength(v, budget - n);
    first = false;
    if (n > budget) return n;
  }
  return n;
}

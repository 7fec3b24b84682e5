// The named cells a policy module adds to the default `compare` matrix: a record's vulnerable
// combination with some knobs changed (under that record's alphabet), or a combination of its own.
import { allFaultFamilies } from '../models/faults.ts';
import { combination, knobValues, type ClientOverrides, type ServerOverrides } from '../models/policies.ts';
import { ALPHABET_000, ALPHABET_003, VULNERABLE_000, VULNERABLE_003 } from '../core/cells.ts';
import type { ExtraCell } from '../compare/matrix.ts';
import { isRecord } from './sandbox.ts';

type Fail = (source: string, message: string) => never;

function only(fail: Fail, source: string, where: string, v: Record<string, unknown>, keys: readonly string[]): void {
  const extra = Object.keys(v).find((k) => !keys.includes(k));
  if (extra) fail(source, `${where} has an unknown key '${extra}' (valid: ${keys.join(', ')})`);
}

export function cellsOf(source: string, raw: unknown, fail: Fail): ExtraCell[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) fail(source, 'cells should be an array');
  return raw.map((c, i): ExtraCell => {
    const where = `cells[${i}]`;
    if (!isRecord(c) || typeof c.name !== 'string' || c.name.trim() === '') fail(source, `${where} needs a name`);
    only(fail, source, where, c, ['name', 'record', 'server', 'client', 'faults']);
    if (c.record !== undefined && c.record !== '000' && c.record !== '003') fail(source, `${where}.record should be '000' or '003'`);
    for (const side of ['server', 'client'] as const) {
      const over = c[side] ?? {};
      if (!isRecord(over)) fail(source, `${where}.${side} should be an object of knob values`);
      for (const [k, v] of Object.entries(over)) {
        const valid = knobValues(side, k);
        if (valid.length === 0) fail(source, `${where}.${side}: unknown knob '${k}'`);
        for (const value of k === 'guards' ? (Array.isArray(v) ? v : [v]) : [v]) {
          if (!valid.includes(value as string)) fail(source, `${where}.${side}.${k}: unknown value '${String(value)}' (valid: ${valid.join(', ')})`);
        }
      }
    }
    const faults = c.faults === undefined ? undefined : Array.isArray(c.faults) ? (c.faults as string[]) : fail(source, `${where}.faults should be an array of fault names`);
    const known = allFaultFamilies().flatMap((f) => f.instances);
    const unknownFault = faults?.find((f) => !known.includes(f));
    if (unknownFault) fail(source, `${where}.faults: unknown fault '${unknownFault}'`);
    const server = (c.server ?? {}) as ServerOverrides;
    const client = (c.client ?? {}) as ClientOverrides;
    if (c.record === '000') {
      const comb = combination({ server: { ...VULNERABLE_000.server, ...server }, client: { ...VULNERABLE_000.client, ...client } });
      return { name: c.name, seed: '000', role: 'beyond', combination: comb, faults: faults ?? ALPHABET_000, property: 'no-silent-empty', progressCalls: false };
    }
    if (c.record === '003') {
      const comb = combination({ server: { ...VULNERABLE_003.server, ...server }, client: { ...VULNERABLE_003.client, ...client } });
      return { name: c.name, seed: '003', role: 'beyond', combination: comb, faults: faults ?? ALPHABET_003, property: 'no-silent-hang', progressCalls: true };
    }
    return { name: c.name, seed: null, role: 'beyond', combination: combination({ server, client }), faults: faults ?? [], property: null, progressCalls: false };
  });
}


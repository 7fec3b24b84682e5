// The named cells a policy module adds to the default `compare` matrix: a record's vulnerable
// combination with some knobs changed (under that record's alphabet), or a combination of its own.
import { allFaultFamilies } from '../../models/faults.ts';
import { combination, knobOf, type ClientOverrides, type ServerOverrides } from '../../models/policies.ts';
import type { PolicyAdditions } from '../../models/additions.ts';
import { ALPHABET_000, ALPHABET_003, VULNERABLE_000, VULNERABLE_003, type ExtraCell } from '../core/cells.ts';
import type { CellShape } from './policy-schema.ts';

type Fail = (source: string, message: string) => never;

/** The cells of a module whose shape is checked (plugins/policy-schema.ts); here, that the knob
 *  values and faults they name exist, built in or registered (in `additions`) by a module loaded so far. */
export function cellsOf(source: string, cells: readonly CellShape[] | undefined, additions: PolicyAdditions, fail: Fail): ExtraCell[] {
  return (cells ?? []).map((c, i): ExtraCell => {
    const where = `cells[${i}]`;
    for (const side of ['server', 'client'] as const) {
      for (const [k, v] of Object.entries(c[side] ?? {})) {
        const spec = knobOf(side, k, additions)?.spec;
        if (!spec) fail(source, `${where}.${side}: unknown knob '${k}'`);
        const valid = spec.values;
        // Only a set knob (guards) takes a list; a list given for another knob is one (unknown) value.
        for (const value of spec.subset && Array.isArray(v) ? v : [v]) {
          if (!valid.includes(value as string))
            fail(source, `${where}.${side}.${k}: unknown value '${String(value)}' (valid: ${valid.join(', ')})`);
        }
      }
    }
    const known = allFaultFamilies(additions).flatMap((f) => f.instances);
    const unknownFault = c.faults?.find((f) => !known.includes(f));
    if (unknownFault) fail(source, `${where}.faults: unknown fault '${unknownFault}'`);
    const { faults } = c;
    const server = (c.server ?? {}) as ServerOverrides;
    const client = (c.client ?? {}) as ClientOverrides;
    if (c.record === '000') {
      const comb = combination(
        { server: { ...VULNERABLE_000.server, ...server }, client: { ...VULNERABLE_000.client, ...client } },
        additions,
      );
      return {
        name: c.name,
        seed: '000',
        role: 'beyond',
        combination: comb,
        faults: faults ?? ALPHABET_000,
        property: 'no-silent-empty',
        progressCalls: false,
      };
    }
    if (c.record === '003') {
      const comb = combination(
        { server: { ...VULNERABLE_003.server, ...server }, client: { ...VULNERABLE_003.client, ...client } },
        additions,
      );
      return {
        name: c.name,
        seed: '003',
        role: 'beyond',
        combination: comb,
        faults: faults ?? ALPHABET_003,
        property: 'no-silent-hang',
        progressCalls: true,
      };
    }
    return {
      name: c.name,
      seed: null,
      role: 'beyond',
      combination: combination({ server, client }, additions),
      faults: faults ?? [],
      property: null,
      progressCalls: false,
    };
  });
}

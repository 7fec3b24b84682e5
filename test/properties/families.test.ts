// The lists that read properties by kind are the property table's families, not lists of their own:
// the migration view counts the silent ones; the audit judges every scenario by the silent ones and
// recovery, and the handler check's "no silent failures" is the silent ones, both without the one
// that judges side effects (which only a scenario calling a named side-effecting tool can judge).
import { describe, expect, it } from 'vitest';
import { columnOf, familyOf } from '../../properties/fold.ts';
import { PROPERTIES, propertyByName, propertyNames } from '../../properties/properties.ts';
import { SILENT_PROPERTIES } from '../../sim/compare/migration.ts';
import { AUDIT_PROPERTIES, SCENARIOS } from '../../sim/audit/scenarios.ts';
import { CLIENT_SCENARIOS } from '../../sim/audit/client/scenarios.ts';
import { SILENT_FAILURE_PROPERTIES } from '../../sim/wire/handler-check.ts';

describe('property families', () => {
  it('every built-in property has a family and a short column head of its own', () => {
    expect(PROPERTIES.map((p) => [p.name, familyOf(p), columnOf(p)])).toEqual([
      ['no-silent-empty', 'silent', 'empty'],
      ['no-silent-hang', 'silent', 'hang'],
      ['caps-immutable', 'invariant', 'caps'],
      ['transport-expressible', 'invariant', 'transp'],
      ['content-type-consistent', 'invariant', 'c-type'],
      ['recovers', 'recovery', 'recov'],
      ['at-most-once', 'silent', 'once'],
    ]);
    expect(PROPERTIES.filter((p) => p.sideEffects).map((p) => p.name)).toEqual(['at-most-once']);
  });

  it('give each list its members, in table order', () => {
    expect(SILENT_PROPERTIES).toEqual(['no-silent-empty', 'no-silent-hang', 'at-most-once']);
    expect(AUDIT_PROPERTIES).toEqual(['no-silent-empty', 'no-silent-hang', 'recovers']);
    expect(SILENT_FAILURE_PROPERTIES).toEqual(['no-silent-empty', 'no-silent-hang']);
    expect(propertyNames(['invariant'])).toEqual(['caps-immutable', 'transport-expressible', 'content-type-consistent']);
  });

  it('the audit judges a side effect only where a scenario calls a tool named as having one', () => {
    for (const s of [...SCENARIOS, ...CLIENT_SCENARIOS]) {
      expect(s.judgedBy.slice(0, AUDIT_PROPERTIES.length), s.name).toEqual(AUDIT_PROPERTIES);
      for (const name of s.judgedBy) expect(propertyByName(name), `${s.name}: ${name}`).toBeDefined();
      const sideEffects = s.judgedBy.filter((name) => propertyByName(name)!.sideEffects);
      expect(sideEffects.length > 0, s.name).toBe('needsSideEffect' in s && s.needsSideEffect === true);
    }
  });
});

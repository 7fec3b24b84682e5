// The properties of docs/design.md, each written once: one row per property, in the order the
// reports list them, with its fold over a history (properties/fold.ts; each in its own file), its
// family and the short head the terminal prints over its column. Whole-history checking (judge.ts),
// exhaustive exploration (search/exhaustive/explore.ts), the reports, and the lists that read
// properties by kind (the audit's verdicts, the handler check's default, the migration view) all
// read this table; a property a policy module adds carries the same fields (registered.ts).
import { atMostOnce } from './at-most-once.ts';
import { capsImmutable } from './caps-immutable.ts';
import { contentTypeConsistent } from './content-type-consistent.ts';
import { familyOf, type AnyFold, type Property, type PropertyFamily } from './fold.ts';
import { noSilentEmpty, noSilentHang } from './no-silent.ts';
import { recovers } from './recovers.ts';
import { transportExpressible } from './transport-expressible.ts';

export type { Property, PropertyFamily, PropertyVerdict } from './fold.ts';

interface Row {
  fold: Omit<AnyFold, 'name'>;
  family: PropertyFamily;
  column: string;
  sideEffects?: true;
}

const row = (fold: Omit<AnyFold, 'name'>, family: PropertyFamily, column: string, sideEffects?: true): Row => ({
  fold,
  family,
  column,
  ...(sideEffects && { sideEffects }),
});

const TABLE = {
  'no-silent-empty': row(noSilentEmpty, 'silent', 'empty'),
  'no-silent-hang': row(noSilentHang, 'silent', 'hang'),
  'caps-immutable': row(capsImmutable, 'invariant', 'caps'),
  'transport-expressible': row(transportExpressible, 'invariant', 'transp'),
  'content-type-consistent': row(contentTypeConsistent, 'invariant', 'c-type'),
  recovers: row(recovers, 'recovery', 'recov'),
  // Silent: the agent sees one result while the tool ran twice (docs/design.md), and the audit's verdict
  // for a duplicate is `silent`. It counts runs of side-effecting tools (`sideEffects`).
  'at-most-once': row(atMostOnce, 'silent', 'once', true),
};

export type PropertyName = keyof typeof TABLE;

/** A built-in property: its fold, with its name and what the table says of it. */
export type BuiltinProperty = AnyFold & { name: PropertyName; family: PropertyFamily; column: string };

export const PROPERTIES: readonly BuiltinProperty[] = Object.entries(TABLE).map(([name, { fold, ...info }]) => ({
  name: name as PropertyName,
  ...fold,
  ...info,
}));

/** The built-ins, then `registered` (a registry's, plugins/loaded.ts): what a check runs by default. */
export function allProperties(registered: readonly Property[] = []): readonly Property[] {
  return registered.length === 0 ? PROPERTIES : [...PROPERTIES, ...registered];
}

/** The property of this name: a built-in (always a fold), or one of `registered`. The one lookup by name. */
export function propertyByName(name: string): AnyFold | undefined;
export function propertyByName(name: string, registered: readonly Property[]): Property | undefined;
export function propertyByName(name: string, registered: readonly Property[] = []): Property | undefined {
  return PROPERTIES.find((p) => p.name === name) ?? registered.find((p) => p.name === name);
}

/** The built-in properties of these families, in table order; without those that judge side effects
 *  (`sideEffects`) where the calls' tools are not known to have any. */
export function propertyNames(families: readonly PropertyFamily[], o: { sideEffects?: boolean } = {}): PropertyName[] {
  return PROPERTIES.filter((p) => families.includes(familyOf(p)) && (o.sideEffects !== false || !p.sideEffects)).map((p) => p.name);
}

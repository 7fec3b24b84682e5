// The properties of docs/design.md, each a fold over a history (properties/fold.ts), in the order
// the reports list them. Whole-history checking (judge.ts) and exhaustive exploration
// (search/exhaustive/explore.ts) use these same objects.
import { atMostOnce } from './at-most-once.ts';
import { capsImmutable } from './caps-immutable.ts';
import { contentTypeConsistent } from './content-type-consistent.ts';
import type { AnyFold } from './fold.ts';
import { noSilentEmpty, noSilentHang } from './no-silent.ts';
import { recovers } from './recovers.ts';
import { transportExpressible } from './transport-expressible.ts';

export type { Property, PropertyVerdict } from './fold.ts';

export const PROPERTIES: readonly AnyFold[] = [
  noSilentEmpty,
  noSilentHang,
  capsImmutable,
  transportExpressible,
  contentTypeConsistent,
  recovers,
  atMostOnce,
];

export type PropertyName =
  | 'no-silent-empty'
  | 'no-silent-hang'
  | 'caps-immutable'
  | 'transport-expressible'
  | 'content-type-consistent'
  | 'recovers'
  | 'at-most-once';

export function propertyByName(name: string): AnyFold | undefined {
  return PROPERTIES.find((p) => p.name === name);
}

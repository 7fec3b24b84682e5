// A world's options as the short key every run the store keeps starts with (search/run-store.ts): a
// run is a function of its input, the world's options and the knob values it read, so two worlds that
// differ in any option never share a run.
import type { WorldOptions } from '../world/world.ts';

/** Object-valued world options (a registry's additions) by identity. */
const objectIds = new WeakMap<object, number>();
let nextObject = 0;
/** Each distinct world (by `worldKey`'s rule) as a short id: every stored run's key starts with it. */
const worldIds = new Map<string, string>();
const worldIdOf = new WeakMap<WorldOptions, string>();

/** The world's options as one short key: every option by value, an object by identity (two worlds
 *  that differ in any option never share; two equal ones written differently only miss a share).
 *  Worked out once per options object; the store's keys carry only its id. */
export function worldKey(world: WorldOptions): string {
  let id = worldIdOf.get(world);
  if (id !== undefined) return id;
  const full = Object.keys(world)
    .sort()
    .map((k) => {
      const v = (world as unknown as Record<string, unknown>)[k];
      if (v === undefined) return '';
      if (typeof v !== 'object' && typeof v !== 'function') return `${k}=${typeof v}:${String(v)}`;
      let oid = objectIds.get(v as object);
      if (oid === undefined) objectIds.set(v as object, (oid = nextObject++));
      return `${k}=#${oid}`;
    })
    .filter((s) => s !== '')
    .join('|');
  id = worldIds.get(full);
  if (id === undefined) worldIds.set(full, (id = `w${worldIds.size}`));
  worldIdOf.set(world, id);
  return id;
}

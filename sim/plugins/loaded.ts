// A registry: everything one set of policy modules adds, as a value. `loadPolicies` (policy-module.ts)
// makes a new one per call, so that what one command or comparison loaded never changes another's
// results; the built-ins alone are `EMPTY_REGISTRY`. Its parts travel separately to where they are
// used: `extensions` in the world options (models/extensions.ts), `properties` in a check's property
// list, `cells` into the default matrix, and `modules` (the paths it came from) to worker threads,
// which load the same modules into a registry of their own.
import { emptyExtensions, NO_EXTENSIONS, type ModelExtensions } from '../../models/extensions.ts';
import { allProperties, PROPERTIES, type Property } from '../../properties/properties.ts';
import type { RegisteredProperty } from '../../properties/registered.ts';
import type { ExtraCell } from '../core/cells.ts';

export interface Registry {
  /** The module files it was loaded from, as given, in load order (none for one registered from an
   *  object in this process: a worker thread could not rebuild that one). */
  readonly modules: readonly string[];
  readonly extensions: ModelExtensions;
  readonly properties: readonly RegisteredProperty[];
  readonly cells: readonly ExtraCell[];
}

/** A registry while its modules are registered into it (the loader's view). */
export interface RegistryDraft extends Registry {
  readonly modules: string[];
  readonly properties: RegisteredProperty[];
  readonly cells: ExtraCell[];
}

export const EMPTY_REGISTRY: Registry = Object.freeze({ modules: [], extensions: NO_EXTENSIONS, properties: [], cells: [] });

export function draftRegistry(): RegistryDraft {
  // One array: the extensions name the same modules as the registry (a worker loads them from there).
  const modules: string[] = [];
  return { modules, extensions: emptyExtensions(modules), properties: [], cells: [] };
}

/** The properties a check runs by default under this registry: the built-ins, then the registered. */
export function registryProperties(r: Registry): readonly Property[] {
  return allProperties(r.properties);
}

/** The world options that carry this registry's extensions (none for the built-ins, so that the
 *  options, and what is saved from them, stay as they were without modules). */
export function worldOf(r: Registry): { extensions?: ModelExtensions } {
  return r.extensions === NO_EXTENSIONS || r.modules.length === 0 ? {} : { extensions: r.extensions };
}

/** Is `p` one a thread loading `modules` has too (a built-in, or registered by one of them)? */
export function portableProperty(p: Property, modules: readonly string[]): boolean {
  return (PROPERTIES as readonly Property[]).includes(p) || ('source' in p && modules.includes(String(p.source)));
}

// A registry: everything one set of policy modules adds, as a value. `loadPolicies` (policy-module.ts)
// makes a new one per call, so that what one command or comparison loaded never changes another's
// results; the built-ins alone are `EMPTY_REGISTRY`. It travels whole in the run's configuration
// (run-config.ts): its `additions` are bound into the world's machines, its `properties` are the
// default ones judged, its `cells` join the default matrix, and its `modules` (the paths it came
// from) go to worker threads, which load the same modules into a registry of their own.
import { emptyAdditions, NO_ADDITIONS, type PolicyAdditions } from '../../models/additions.ts';
import { allProperties, propertyByName, PROPERTIES, type Property } from '../../properties/properties.ts';
import type { RegisteredProperty } from '../../properties/registered.ts';
import type { ExtraCell } from '../core/cells.ts';

export interface Registry {
  /** The module files it was loaded from, as given, in load order (none for one registered from an
   *  object in this process: a worker thread could not rebuild that one). */
  readonly modules: readonly string[];
  readonly additions: PolicyAdditions;
  readonly properties: readonly RegisteredProperty[];
  readonly cells: readonly ExtraCell[];
}

/** A registry while its modules are registered into it (the loader's view). */
export interface RegistryDraft extends Registry {
  readonly modules: string[];
  readonly properties: RegisteredProperty[];
  readonly cells: ExtraCell[];
}

export const EMPTY_REGISTRY: Registry = Object.freeze({ modules: [], additions: NO_ADDITIONS, properties: [], cells: [] });

export function draftRegistry(): RegistryDraft {
  // One array: the additions name the same modules as the registry (a worker loads them from there).
  const modules: string[] = [];
  return { modules, additions: emptyAdditions(modules), properties: [], cells: [] };
}

/** The properties a check runs by default under this registry: the built-ins, then the registered. */
export function registryProperties(r: Registry): readonly Property[] {
  return allProperties(r.properties);
}

export function registryProperty(r: Registry, name: string): Property | undefined {
  return propertyByName(name, r.properties);
}

/** Is `p` one a thread loading `modules` has too (a built-in, or registered by one of them)? */
export function portableProperty(p: Property, modules: readonly string[]): boolean {
  return (PROPERTIES as readonly Property[]).includes(p) || ('source' in p && modules.includes(String(p.source)));
}

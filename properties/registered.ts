// The properties a check runs by default: the built-in oracles, then those a policy module
// registered (`--policies`), held in a registry value (plugins/loaded.ts), never here. A
// registered property is an oracle like the others: a function of the history and the call
// outcomes, never of the world.
import { PROPERTIES, type Property } from './properties.ts';

export type RegisteredProperty = Property & { source: string };

/** Add `p` to `registered` (one registry's list, as it is built); a name is never reused. */
export function registerProperty(registered: RegisteredProperty[], p: Property, source: string): void {
  const clash = findProperty(p.name, registered);
  if (clash) throw new Error(`property '${p.name}' is already ${'source' in clash ? `registered by ${String(clash.source)}` : 'built in'}`);
  registered.push({ ...p, source });
}

export function allProperties(registered: readonly RegisteredProperty[] = []): readonly Property[] {
  return registered.length === 0 ? PROPERTIES : [...PROPERTIES, ...registered];
}

export function findProperty(name: string, registered: readonly RegisteredProperty[] = []): Property | undefined {
  return allProperties(registered).find((p) => p.name === name);
}

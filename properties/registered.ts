// The properties a policy module registers (`--policies`), held in a registry value
// (plugins/loaded.ts), never here. A registered property is an oracle like the built-ins: a function
// of the history and the call outcomes, never of the world, with a family and a column head of its
// own (properties/fold.ts `PropertyInfo`); the built-ins and the one lookup by name are properties.ts.
import { propertyByName, type Property } from './properties.ts';

export type RegisteredProperty = Property & { source: string };

/** Add `p` to `registered` (one registry's list, as it is built); a name is never reused. */
export function registerProperty(registered: RegisteredProperty[], p: Property, source: string): void {
  const clash = propertyByName(p.name, registered);
  if (clash) throw new Error(`property '${p.name}' is already ${'source' in clash ? `registered by ${String(clash.source)}` : 'built in'}`);
  registered.push({ ...p, source });
}

// The properties a check runs by default: the six built-in oracles, then any a policy module
// registered (`--policies`). A registered property is an oracle like the others: a function of the
// history and the call outcomes, never of the world.
import { PROPERTIES, type Property } from './properties.ts';

const registered: (Property & { source: string })[] = [];

export function registerProperty(p: Property, source: string): void {
  const clash = findProperty(p.name);
  if (clash) throw new Error(`property '${p.name}' is already ${'source' in clash ? `registered by ${String(clash.source)}` : 'built in'}`);
  registered.push({ ...p, source });
}

export function allProperties(): readonly Property[] {
  return registered.length === 0 ? PROPERTIES : [...PROPERTIES, ...registered];
}

export function findProperty(name: string): Property | undefined {
  return allProperties().find((p) => p.name === name);
}

export function registeredProperty(name: string): (Property & { source: string }) | undefined {
  return registered.find((p) => p.name === name);
}

/** Tests only. */
export function clearRegisteredProperties(): void {
  registered.length = 0;
}

// One run's configuration as one value: what the policy modules add (the registry), the model
// world's options, the seed, the runs per cell and the properties judged. Resolved once, where a run
// starts (the CLI's commands from their flags and `--policies`, the library's entries from their
// arguments), every default filled in, and passed down whole: each stage reads what it needs from
// it (fast-check's `QualifiedParameters`, TigerBeetle's one `Options`). It is data only: progress,
// stop flags and the threads a run may use travel beside it, as the stages that take them say.
//
// The policy modules' cells, which the default matrix adds, are the registry's (`registry.cells`).
// A worker thread gets the config in its portable form (module paths and plain data) and rebuilds
// the same value from it, loading the same modules into a registry of its own.
import type { Property } from '../../properties/properties.ts';
import { DEFAULT_WORLD, type WorldOptions } from '../world/options.ts';
import { EMPTY_REGISTRY, portableProperty, registryProperties, registryProperty, type Registry } from './loaded.ts';

export const DEFAULT_SEED = 1;
export const DEFAULT_RUNS = 200;

export interface RunConfig {
  /** What the policy modules loaded add (EMPTY_REGISTRY: the built-ins only): their knob values and
   *  faults (`registry.additions`, bound into the world's machines), properties and cells. */
  readonly registry: Registry;
  /** The model world's options, every one resolved; its `additions` are the registry's. */
  readonly world: WorldOptions;
  /** The fast-check seed every random draw of the run starts from. */
  readonly seed: number;
  /** Random runs per combination. */
  readonly runs: number;
  /** The properties judged: the registry's (the built-ins, then the modules'), or those chosen. */
  readonly properties: readonly Property[];
}

/** What a run is started with; what is left out takes its default. */
export interface RunConfigInput {
  registry?: Registry;
  world?: Partial<Omit<WorldOptions, 'additions'>>;
  seed?: number;
  runs?: number;
  properties?: readonly Property[];
}

/** The config of a run: every default filled in, the world's additions taken from the registry. */
export function runConfig(given: RunConfigInput = {}): RunConfig {
  const registry = given.registry ?? EMPTY_REGISTRY;
  return {
    registry,
    world: { ...DEFAULT_WORLD, ...given.world, additions: registry.additions },
    seed: given.seed ?? DEFAULT_SEED,
    runs: given.runs ?? DEFAULT_RUNS,
    properties: given.properties ?? registryProperties(registry),
  };
}

/** The built-ins only, with every default. */
export const DEFAULT_CONFIG: RunConfig = runConfig();

/** A run's config as it crosses to a worker thread: the policy modules by path, properties by name. */
export interface PortableConfig {
  modules: string[];
  world: Omit<WorldOptions, 'additions'>;
  seed: number;
  runs: number;
  properties: string[];
}

/** The portable form of `config`, or null where a worker could not rebuild it: a registry or a
 *  property made in this process from objects rather than loaded from a module's file. */
export function portableConfig(config: RunConfig): PortableConfig | null {
  const { registry, world, seed, runs, properties } = config;
  const modules = registry.modules;
  const { additions, ...plain } = world;
  if (additions !== registry.additions) return null;
  const added = [additions.reinit, additions.reconnect, additions.guards, additions.faults].some((a) => a.names().length > 0);
  if (modules.length === 0 && (added || registry.properties.length > 0)) return null;
  if (!properties.every((p) => portableProperty(p, modules))) return null;
  return { modules: [...modules], world: plain, seed, runs, properties: properties.map((p) => p.name) };
}

/** The config a portable form stands for, under `registry`: the one its modules load into (a worker
 *  loads them once per list of paths; none: the built-ins). */
export function configFrom(p: PortableConfig, registry: Registry): RunConfig {
  const properties = p.properties.map((name) => {
    const found = registryProperty(registry, name);
    if (!found) throw new Error(`internal: property '${name}' is not in the worker's registry (${p.modules.join(', ') || 'built-ins'})`);
    return found;
  });
  return runConfig({ registry, world: p.world, seed: p.seed, runs: p.runs, properties });
}

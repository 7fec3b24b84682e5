// A worker thread of the exploration pool (search/exhaustive/pool.ts): it runs the jobs it is sent and
// posts back their results, plain data. Properties travel by name and policy modules by path: the
// worker loads the modules into a registry of its own (once per list of paths) and finds the
// properties there; a stop flag, in shared memory.
import { parentPort } from 'node:worker_threads';
import { PolicyError } from '../../../models/extensions.ts';
import { loadPolicies } from '../../plugins/policy-module.ts';
import { EMPTY_REGISTRY, worldOf, type Registry } from '../../plugins/loaded.ts';
import { propertyByName } from '../../../properties/properties.ts';
import { exploreJob } from './explore.ts';
import type { JobSpec } from './pool.ts';

const registries = new Map<string, Promise<Registry>>();

function registryOf(modules: readonly string[]): Promise<Registry> {
  if (modules.length === 0) return Promise.resolve(EMPTY_REGISTRY);
  const key = JSON.stringify(modules);
  let r = registries.get(key);
  if (!r) registries.set(key, (r = loadPolicies(modules)));
  return r;
}

parentPort!.on('message', async ({ index, spec }: { index: number; spec: JobSpec }) => {
  try {
    const { properties, stop, modules, world, ...job } = spec;
    const registry = await registryOf(modules);
    const extended = worldOf(registry);
    const result = exploreJob({
      ...job,
      ...(world || extended.extensions ? { world: { ...world, ...extended } } : {}),
      ...(properties ? { properties: properties.map((name) => propertyByName(name, registry.properties)!) } : {}),
      ...(stop ? { shouldStop: () => Atomics.load(stop, 0) !== 0 } : {}),
    });
    parentPort!.postMessage({ index, result });
  } catch (e) {
    // A designer's policy failing is a finding of its cell: it crosses back as the same error.
    if (e instanceof PolicyError) {
      const { policy, message, reason, history } = e;
      return parentPort!.postMessage({ index, policyError: { policy, message, reason, history } });
    }
    parentPort!.postMessage({ index, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});

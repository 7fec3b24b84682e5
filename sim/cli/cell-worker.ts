// The worker side of cli/cell-thread.ts: load the policy modules once, then run each cell it is sent
// through `check`, posting progress every 50 runs and stopping (with nothing posted but `stopped`)
// once the shared stop flag is set. Results are plain data; a PolicyError crosses as its fields.
import { parentPort, workerData } from 'node:worker_threads';
import { checkCell, type RunSettings } from '../compare/compare.ts';
import type { MatrixCell } from '../compare/matrix.ts';
import type { SearchSpec } from '../compare/mitigation-searches.ts';
import { runSearch } from '../compare/mitigations.ts';
import { PolicyError } from '../../models/extensions.ts';
import { loadPolicies } from '../plugins/policy-module.ts';
import { worldOf } from '../plugins/loaded.ts';
import { propertyByName } from '../../properties/properties.ts';

const { policies, stop } = workerData as { policies: string[]; stop: Int32Array };
class Stopped extends Error {}
// The finder's judges (a reference per workload) and draws, shared by the searches of this thread's one comparison.
const judges = new Map();
const draws = new Map();

const ready = loadPolicies(policies);
// The main thread loaded the same modules before it started this thread; if they fail to load here
// (a machine so loaded that the import time limit passes), it runs the cells itself.
ready.then(
  () => parentPort!.postMessage({ ready: true }),
  (e: unknown) => parentPort!.postMessage({ loadFailed: e instanceof Error ? e.message : String(e) }),
);

parentPort!.on(
  'message',
  async ({
    id,
    cell,
    search,
    sampled,
    seed,
    runs,
    properties,
    world,
  }: {
    /** Echoed in every reply to this message: a second cell waits in the port's queue behind the first. */
    id: number;
    cell?: MatrixCell;
    search?: SearchSpec;
    sampled?: Uint8Array;
    seed: number;
    runs: number;
    properties: string[];
    world: RunSettings['world'];
  }) => {
    if (search) {
      // One of the mitigation finder's searches (compare/mitigation-searches.ts): the finder's properties, this registry's world.
      try {
        const registry = await ready;
        const props = properties.map((n) => propertyByName(n, registry.properties)!);
        const x = {
          seed,
          runs,
          properties: props,
          faults: search.faults,
          shape: search.shape,
          world: { ...world, ...worldOf(registry) },
          judges,
          draws,
        };
        parentPort!.postMessage({ id, searched: runSearch(search.combination, x, sampled) });
      } catch (e) {
        parentPort!.postMessage({ id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      }
      return;
    }
    if (!cell) return;
    try {
      const registry = await ready;
      const onProgress = (done: number, total: number) => {
        if (Atomics.load(stop, 0) !== 0) throw new Stopped();
        parentPort!.postMessage({ id, progress: [done, total] });
      };
      const result = await checkCell(cell, {
        seed,
        runs,
        properties: properties.map((n) => propertyByName(n, registry.properties)!),
        onProgress,
        world: { ...world, ...worldOf(registry) },
      });
      parentPort!.postMessage({ id, result });
    } catch (e) {
      if (e instanceof Stopped) parentPort!.postMessage({ id, stopped: true });
      else if (e instanceof PolicyError)
        parentPort!.postMessage({ id, policyError: { policy: e.policy, message: e.message, reason: e.reason, history: e.history } });
      else parentPort!.postMessage({ id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  },
);

// A worker thread of the exploration pool (search/exhaustive/pool.ts): it runs the jobs it is sent and
// posts back their results, plain data. Properties travel by name; a stop flag, in shared memory.
import { parentPort } from 'node:worker_threads';
import { propertyByName } from '../../properties/properties.ts';
import { exploreJob } from './explore.ts';
import type { JobSpec } from './pool.ts';

parentPort!.on('message', ({ index, spec }: { index: number; spec: JobSpec }) => {
  try {
    const { properties, stop, ...job } = spec;
    const result = exploreJob({
      ...job,
      ...(properties ? { properties: properties.map((name) => propertyByName(name)!) } : {}),
      ...(stop ? { shouldStop: () => Atomics.load(stop, 0) !== 0 } : {}),
    });
    parentPort!.postMessage({ index, result });
  } catch (e) {
    parentPort!.postMessage({ index, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});

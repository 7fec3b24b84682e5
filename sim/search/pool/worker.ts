// A pool thread (pool/thread.ts starts it): it rebuilds each job's run config from its portable form
// (loading the policy modules once per list of paths, into a registry of its own), imports the job's
// kind (a module and function, by URL) once, runs the job and posts back its progress and result,
// plain data. Jobs of one config share one rebuilt config, so its registry, its engines and this
// thread's run store serve them all.
import { parentPort } from 'node:worker_threads';
import { EMPTY_REGISTRY, type Registry } from '../../plugins/loaded.ts';
import { configFrom, type PortableConfig, type RunConfig } from '../../plugins/run-config.ts';
import { failureReply, type Ask, type JobContext, type JobKind, type JobRunner, type Reply } from './job.ts';

const registries = new Map<string, Promise<Registry>>();
const configs = new Map<string, Promise<RunConfig>>();
const kinds = new Map<string, Promise<JobRunner>>();
/** What jobs of one config keep in this thread (`JobContext.kept`), by config. */
const keptByConfig = new Map<string, Map<string, unknown>>();

function registryOf(modules: readonly string[]): Promise<Registry> {
  if (modules.length === 0) return Promise.resolve(EMPTY_REGISTRY);
  const key = JSON.stringify(modules);
  let r = registries.get(key);
  // Imported only for modules to load (its schemas bring zod): most threads never need it.
  if (!r) registries.set(key, (r = import('../../plugins/policy-module.ts').then(({ loadPolicies }) => loadPolicies(modules))));
  return r;
}

function configOf(key: string, portable: PortableConfig): Promise<RunConfig> {
  let c = configs.get(key);
  if (!c) configs.set(key, (c = registryOf(portable.modules).then((registry) => configFrom(portable, registry))));
  return c;
}

function runnerOf(kind: JobKind): Promise<JobRunner> {
  const key = `${kind.module}#${kind.name}`;
  let r = kinds.get(key);
  if (!r) kinds.set(key, (r = import(kind.module).then((m: Record<string, JobRunner>) => m[kind.name]!)));
  return r;
}

function contextOf(key: string, id: number, stop: Int32Array | undefined): JobContext {
  let kept = keptByConfig.get(key);
  if (!kept) keptByConfig.set(key, (kept = new Map()));
  const mine = kept;
  return {
    progress: (done, total) => post({ id, progress: [done, total] }),
    shouldStop: stop ? () => Atomics.load(stop, 0) !== 0 : undefined,
    kept<T>(name: string, make: () => T): T {
      if (!mine.has(name)) mine.set(name, make());
      return mine.get(name) as T;
    },
  };
}

const post = (m: Reply) => parentPort!.postMessage(m);

// One job at a time, in the order asked: a job's result is posted before the next job starts. Without
// the chain, two jobs asked together both wait on the first job kind's import; the first job's
// `await` of its result then let the second run whole before that result was posted (a comparison's
// first cell was reported done only after its second, and the second's progress was counted as the first's).
let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (m: Ask) => {
  queue = queue.then(() => answer(m));
});

async function answer(m: Ask): Promise<void> {
  const key = JSON.stringify(m.config);
  try {
    const config = await configOf(key, m.config);
    if (m.warm) return post({ id: m.id, ready: true });
    const run = await runnerOf(m.kind!);
    post({ id: m.id, result: await run(m.data, config, contextOf(key, m.id, m.stop)) });
  } catch (e) {
    if (m.warm) return post({ id: m.id, loadFailed: e instanceof Error ? e.message : String(e) });
    post(failureReply(m.id, e));
  }
}

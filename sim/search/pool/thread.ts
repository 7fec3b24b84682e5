// One thread of the pool: a worker running pool/worker.ts, asked any number of jobs at once (each ask
// has an id its replies carry, so a second job can wait in the thread's queue behind the first).
// Every job carries the run's config in portable form: the thread rebuilds it, loading the same policy
// modules, so any thread runs any job of any run. Run from source, the entry registers tsx;
// compiled (dist/), the worker is plain JavaScript.
import { Worker } from 'node:worker_threads';
import type { PortableConfig } from '../../plugins/run-config.ts';
import { failureOf, type Ask, type JobKind, type Reply } from './job.ts';

const ENTRY = new URL(new URL(import.meta.url).pathname.endsWith('.ts') ? './worker.mjs' : './worker.js', import.meta.url);

/** The workerData of every pool thread: what tells one apart from other worker threads (a policy
 *  module that behaves differently there: test/fixtures/policies/fails-in-pool-thread.ts). */
export const POOL_THREAD = { mcpFaultsimPool: true } as const;

interface Waiting {
  resolve(value: unknown): void;
  reject(e: Error): void;
  onProgress?: (done: number, total: number) => void;
}

export class PoolThread {
  private readonly worker = new Worker(ENTRY, { workerData: POOL_THREAD });
  private asked = 0;
  private readonly waiting = new Map<number, Waiting>();
  /** Why the thread is gone (it exited or failed), once it is. */
  private gone: Error | null = null;

  constructor() {
    this.worker.on('message', (m: Reply) => this.reply(m));
    this.worker.on('error', (e) => this.end(e));
    this.worker.on('exit', (code) => this.end(new Error(`a pool thread exited (code ${code})`)));
  }

  get alive(): boolean {
    return this.gone === null;
  }

  /** Run one job of `kind` on `data`; progress goes to `onProgress`. Rejects with the job's failure
   *  (JobStopped, a PolicyError) or the thread's. */
  run<R>(
    kind: JobKind,
    data: unknown,
    config: PortableConfig,
    stop?: Int32Array,
    onProgress?: (done: number, total: number) => void,
  ): Promise<R> {
    return this.ask({ config, kind, data, ...(stop ? { stop } : {}) }, onProgress) as Promise<R>;
  }

  /** Load the config's policy modules; null once loaded, else why they would not load. */
  async warm(config: PortableConfig): Promise<string | null> {
    try {
      await this.ask({ config, warm: true });
      return null;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  /** Idle threads are unref'd: they never keep the process alive. */
  ref(): void {
    this.worker.ref();
  }
  unref(): void {
    this.worker.unref();
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  private ask(message: Omit<Ask, 'id'>, onProgress?: (done: number, total: number) => void): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.asked++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, ...(onProgress ? { onProgress } : {}) });
      this.worker.postMessage({ ...message, id });
    });
  }

  private reply(m: Reply): void {
    const w = this.waiting.get(m.id);
    if (!w) return;
    if ('progress' in m) {
      w.onProgress?.(m.progress[0], m.progress[1]);
      return;
    }
    this.waiting.delete(m.id);
    if ('result' in m) w.resolve(m.result);
    else if ('ready' in m) w.resolve(true);
    else w.reject(failureOf(m));
  }

  private end(e: Error): void {
    this.gone ??= e;
    for (const w of this.waiting.values()) w.reject(this.gone);
    this.waiting.clear();
  }
}

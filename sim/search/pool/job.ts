// What crosses between a pool thread (pool/thread.ts, pool/worker.ts) and the thread that asked it.
// A job goes as its kind (the module and the function that run it: the worker imports them by URL,
// as it loads policy modules by path), its data (plain), the run's config in its portable form
// (plugins/run-config.ts) and, if it can be stopped, a stop flag in shared memory. Back come
// progress, then the result or why there is none: the job saw the stop flag, a designer's policy
// failed (the same PolicyError on this side), or something else failed.
import { PolicyError } from '../../../models/additions.ts';
import type { PortableConfig, RunConfig } from '../../plugins/run-config.ts';

/** A kind of job a pool thread runs: the function `name` of the module at `module` (a file URL). */
export interface JobKind {
  readonly module: string;
  readonly name: string;
}

/** What a job gets besides its data and the run's config. */
export interface JobContext {
  /** Tell the asking thread how far the job is (done, total). */
  progress(done: number, total: number): void;
  /** True once the asking thread set the job's stop flag; undefined when it gave none. */
  readonly shouldStop: (() => boolean) | undefined;
  /** A value this thread keeps for every job of the same config (a comparison's judges), made once. */
  kept<T>(name: string, make: () => T): T;
}

/** The function a job kind names. */
export type JobRunner<D = unknown, R = unknown> = (data: D, config: RunConfig, ctx: JobContext) => R | Promise<R>;

/** A job that saw its stop flag: thrown by the job, and what the asking side rejects with. */
export class JobStopped extends Error {
  constructor() {
    super('stopped');
  }
}

/** A message to a pool thread: a job, or `warm` (load the config's policy modules, and say so). */
export interface Ask {
  id: number;
  config: PortableConfig;
  warm?: true;
  kind?: JobKind;
  data?: unknown;
  stop?: Int32Array;
}

type Failed = { policy: string; message: string; reason: PolicyError['reason']; history?: unknown };

/** A pool thread's answer to the ask `id`: any number of `progress`, then one of the others. */
export type Reply = { id: number } & (
  | { progress: [number, number] }
  | { result: unknown }
  | { ready: true }
  | { loadFailed: string }
  | { stopped: true }
  | { policyError: Failed }
  | { error: string }
);

/** The reply that says why a job threw `e`. */
export function failureReply(id: number, e: unknown): Reply {
  if (e instanceof JobStopped) return { id, stopped: true };
  if (e instanceof PolicyError) {
    const { policy, message, reason, history } = e;
    return { id, policyError: { policy, message, reason, history } };
  }
  return { id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
}

/** The error a failure reply stands for, on the asking side. */
export function failureOf(m: Reply): Error {
  if ('stopped' in m) return new JobStopped();
  if ('policyError' in m) {
    const e = new PolicyError(m.policyError.policy, m.policyError.message, m.policyError.reason);
    e.history = m.policyError.history;
    return e;
  }
  return new Error(`a pool thread failed: ${'error' in m ? m.error : 'loadFailed' in m ? m.loadFailed : 'no reason given'}`);
}

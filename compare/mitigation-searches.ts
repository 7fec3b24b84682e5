// The mitigation finder's random searches as jobs: each distinct search (changed combination,
// alphabet, shape) is asked for once per comparison, however many findings neighbour it, and runs
// wherever an executor is free: in this thread between other work (yielding to the event loop
// after each search), or on a thread of the caller's (the CLI's cell thread once the cells are done).
// A search is a pure function of its spec, so who ran it never changes what it found.
import type { FaultName } from '../models/faults.ts';
import type { Combination } from '../models/policies.ts';
import type { Property } from '../properties/properties.ts';
import type { InputShape } from '../search/random/arbitraries.ts';
import type { WorldOptions } from '../world/world.ts';

/** One judged run of a search, as the finder needs it: the silent mechanism if it went silent, else loud / stuck. */
export interface RunMark {
  silent: string | null;
  loud: boolean;
  stuck: boolean;
}

/** A search's runs, or its combination's own policy failing. */
export type Searched = RunMark[] | 'policy-error';

/** What a search depends on besides the comparison's seed, runs, properties and world. */
export interface SearchSpec {
  combination: Combination;
  faults: readonly FaultName[];
  shape: InputShape;
}

/** What every search of one comparison shares: its seed, runs, the finder's properties, the world. */
export interface SearchSettings {
  seed: number;
  runs: number;
  properties: readonly Property[];
  world?: Partial<WorldOptions>;
}

/** Runs one search elsewhere (another thread); rejects if it cannot. */
export type RemoteSearcher = (spec: SearchSpec, settings: SearchSettings) => Promise<Searched>;

interface Job {
  spec: SearchSpec;
  resolve: (s: Searched) => void;
  reject: (e: unknown) => void;
}

const yieldToEvents = () => new Promise<void>((r) => setImmediate(r));

export class MitigationSearches {
  private readonly asked = new Map<string, Promise<Searched>>();
  private readonly pending: Job[] = [];
  private draining = false;
  /** Searches asked for, and how many of those asks an earlier one answered. */
  readonly counts = { asked: 0, distinct: 0 };

  /** `here` runs a search in this thread, synchronously. */
  constructor(
    readonly settings: SearchSettings,
    private readonly here: (spec: SearchSpec) => Searched,
  ) {}

  static keyOf(spec: SearchSpec): string {
    return JSON.stringify([spec.combination, spec.faults, spec.shape]);
  }

  /** The search's runs, run once per spec; this thread starts working through the queue. */
  search(spec: SearchSpec): Promise<Searched> {
    this.counts.asked++;
    const key = MitigationSearches.keyOf(spec);
    let p = this.asked.get(key);
    if (!p) {
      this.counts.distinct++;
      p = new Promise<Searched>((resolve, reject) => this.pending.push({ spec, resolve, reject }));
      this.asked.set(key, p);
      void this.drain();
    }
    return p;
  }

  /** Work through the queue in this thread, one search per turn of the event loop. */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (;;) {
        await yieldToEvents();
        const job = this.pending.shift();
        if (!job) return;
        try {
          job.resolve(this.here(job.spec));
        } catch (e) {
          job.reject(e);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /** Let `remote` take searches from the queue too, one at a time, until it is empty. If the remote
   *  fails, its search goes back to the queue, for this thread. */
  async helpWith(remote: RemoteSearcher): Promise<void> {
    for (;;) {
      const job = this.pending.shift();
      if (!job) return;
      try {
        job.resolve(await remote(job.spec, this.settings));
      } catch {
        this.pending.unshift(job);
        void this.drain();
        return;
      }
    }
  }
}

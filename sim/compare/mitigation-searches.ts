// The mitigation finder's random searches as jobs: each distinct search (changed combination,
// alphabet, shape) is asked for once per comparison, however many findings neighbour it, and runs
// wherever an executor is free: in this thread between other work (yielding to the event loop
// after each search), or on a thread of the caller's (the CLI's cell thread once the cells are done).
// A search is a pure function of its spec, so who ran it never changes what it found.
//
// A search often runs what a cell of the same comparison ran already: a neighbour of one cell is
// another cell (every neighbour is, in a full matrix), and when the cell drew from the same shape
// its first runs are the search's runs. Such a cell offers its runs' flags (`offer`); a search it is
// expected to offer waits for it (`expect`) and then runs only its silent runs again, recorded, for
// their mechanism. Once the cells are done (or stopped), a search still waiting runs in full.
import type { FaultName } from '../../models/faults.ts';
import type { Combination } from '../../models/policies.ts';
import type { InputShape } from '../search/random/arbitraries.ts';
import type { RunConfig } from '../plugins/run-config.ts';

/** One judged run of a search, as the finder needs it: the silent mechanism if it went silent, else loud / stuck. */
export interface RunMark {
  silent: string | null;
  loud: boolean;
  stuck: boolean;
}

/** The mechanism `m` is silent by, as a finding of `mechanism` reads it: a tool that ran twice is a
 *  silent failure only to a duplicate-execution finding; to the others (whose finder did not judge it
 *  before duplicates were searched) such a run reads as its loud / stuck flags say. */
export function silentAs(m: RunMark, mechanism: string | null): string | null {
  return m.silent === 'duplicate-execution' && mechanism !== 'duplicate-execution' ? null : m.silent;
}

/** One object per distinct mark (a handful), and its index in `markList`: see `Packed`. */
const distinctMarks = new Map<string, RunMark>();
const markList: RunMark[] = [];
const markCodes = new Map<RunMark, number>();
export function internedMark(silent: string | null, loud: boolean, stuck: boolean): RunMark {
  const key = `${loud ? 1 : 0}${stuck ? 1 : 0}${silent ?? ''}`;
  let m = distinctMarks.get(key);
  if (!m) {
    distinctMarks.set(key, (m = Object.freeze({ silent, loud, stuck })));
    markCodes.set(m, markList.length);
    markList.push(m);
  }
  return m;
}

/** A search's runs, or its combination's own policy failing. */
export type Searched = RunMark[] | 'policy-error';

/** What a search depends on besides the comparison's config (its seed, runs, properties and world). */
export interface SearchSpec {
  combination: Combination;
  faults: readonly FaultName[];
  shape: InputShape;
}

/** Runs one search elsewhere (another thread) under the finder's config (every search of one
 *  comparison shares it); rejects if it cannot. `sampled`: its runs' flags, from a cell. */
export type RemoteSearcher = (spec: SearchSpec, config: RunConfig, sampled?: Uint8Array) => Promise<Searched>;

interface Job {
  spec: SearchSpec;
  /** The flags of the search's runs, from the cell that ran them (compare/mitigations.ts `flagsOf`). */
  sampled?: Uint8Array;
  resolve: (s: Searched) => void;
  reject: (e: unknown) => void;
}

const yieldToEvents = () => new Promise<void>((r) => setImmediate(r));

/**
 * A search's marks as kept until the comparison ends: each run's mark as its index among the distinct
 * marks (`internedMark`; a remote thread's marks arrive as copies and are interned here), two bytes a
 * run where an array of the objects takes eight. The full matrix keeps 7,351 searches of 200 runs
 * each: `asked` retained 16.1 MB of its main thread's heap at 15 s, 9.0 MB packed (heap
 * snapshots), and a heap that grows to twice what is live pays for it twice in peak RSS
 * (docs/performance.md).
 */
type Packed = Uint16Array | 'policy-error';

function packed(s: Searched): Packed {
  if (s === 'policy-error') return s;
  const codes = new Uint16Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const m = s[i]!;
    codes[i] = markCodes.get(m) ?? markCodes.get(internedMark(m.silent, m.loud, m.stuck))!;
  }
  return codes;
}

function unpacked(p: Packed): Searched {
  if (p === 'policy-error') return p;
  const marks = new Array<RunMark>(p.length);
  for (let i = 0; i < p.length; i++) marks[i] = markList[p[i]!]!;
  return marks;
}

export class MitigationSearches {
  private readonly asked = new Map<string, Promise<Packed>>();
  private readonly pending: Job[] = [];
  /** Searches a cell is expected to offer the runs of (`expect`), and those waiting for it. */
  private readonly expected = new Set<string>();
  private readonly waiting = new Map<string, Job>();
  /** Flags cells offered that no search has asked for yet. */
  private readonly offered = new Map<string, Uint8Array>();
  private draining = false;
  /** Called whenever this thread's queue has run empty (a comparison then gives this thread a cell). */
  onIdle: (() => void) | null = null;
  /** Searches asked for, how many of those asks an earlier one answered, how many a cell's runs did. */
  readonly counts = { asked: 0, distinct: 0, fromCells: 0 };

  /** `here` runs a search in this thread (`sampled`: its runs' flags, from a cell): at once, or in
   *  steps (an iterator), each taken in its own turn of the event loop. */
  constructor(
    /** The comparison's config as the finder runs it (its own properties). */
    readonly config: RunConfig,
    private readonly here: (spec: SearchSpec, sampled?: Uint8Array) => Searched | Iterator<void, Searched>,
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
      p = new Promise<Packed>((resolve, reject) => {
        const job: Job = { spec, resolve: (found) => resolve(packed(found)), reject };
        const sampled = this.offered.get(key);
        if (sampled) {
          this.offered.delete(key);
          this.queue(job, sampled);
        } else if (this.expected.has(key)) this.waiting.set(key, job);
        else this.pending.push(job);
      });
      this.asked.set(key, p);
      void this.drain();
    }
    return p.then(unpacked);
  }

  /** A cell of this comparison will offer the runs of the search `key` (`keyOf`): a search of it waits. */
  expect(key: string): void {
    this.expected.add(key);
  }

  /** A cell ran the first runs of search `key`: here are their flags. */
  offer(key: string, sampled: Uint8Array): void {
    this.expected.delete(key);
    const job = this.waiting.get(key);
    if (!job) {
      if (!this.asked.has(key)) this.offered.set(key, sampled);
      return;
    }
    this.waiting.delete(key);
    this.queue(job, sampled);
    void this.drain();
  }

  /** No cell will offer anything more (the cells are done, or stopped): a search still waiting runs in full. */
  cellsDone(): void {
    this.expected.clear();
    this.offered.clear();
    for (const job of this.waiting.values()) this.pending.push(job);
    this.waiting.clear();
    void this.drain();
  }

  private queue(job: Job, sampled: Uint8Array): void {
    this.counts.fromCells++;
    // Cheap (only silent runs run again): ahead of the full searches.
    this.pending.unshift({ ...job, sampled });
  }

  /** Nothing queued for this thread, and it is not working through the queue. */
  get idle(): boolean {
    return !this.draining && this.pending.length === 0;
  }

  /** Work through the queue in this thread, one search (or one step of one) per turn of the event loop. */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (;;) {
        await yieldToEvents();
        const job = this.pending.shift();
        if (!job) return;
        try {
          const run = job.sampled ? this.here(job.spec, job.sampled) : this.here(job.spec);
          if (Array.isArray(run) || run === 'policy-error') job.resolve(run);
          else {
            let step = run.next();
            for (; !step.done; step = run.next()) await yieldToEvents();
            job.resolve(step.value);
          }
        } catch (e) {
          job.reject(e);
        }
      }
    } finally {
      this.draining = false;
      this.onIdle?.();
    }
  }

  /** Let `remote` take searches from the queue too, one at a time, until it is empty. If the remote
   *  fails, its search goes back to the queue, for this thread. */
  async helpWith(remote: RemoteSearcher): Promise<void> {
    for (;;) {
      // From the back: this thread works from the front, where the searches a cell's runs answer are.
      const job = this.pending.pop();
      if (!job) return;
      try {
        job.resolve(await remote(job.spec, this.config, job.sampled));
      } catch {
        this.pending.push(job);
        void this.drain();
        return;
      }
    }
  }
}

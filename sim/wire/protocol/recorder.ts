// The wire run's one append-only history, in the model tier's format (core/history.ts), stamped
// with virtual time. Every part writes to it; each write also tells the clock that something moved.
import type { HistoryEntry } from '../../core/history.ts';
import type { VirtualTime } from './virtual-time.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type Entry = DistributiveOmit<HistoryEntry, 't'>;

export class Recorder {
  readonly entries: HistoryEntry[] = [];
  private closed = false;

  constructor(readonly time: VirtualTime) {}

  /** The run is over: what its parts still do while they wind down is not part of its history. */
  close(): void {
    this.closed = true;
  }

  record(e: Entry): void {
    if (this.closed) return;
    this.entries.push({ t: this.time.now, ...e } as HistoryEntry);
    this.time.activity++;
    this.landed();
  }

  /** Called after every entry lands, by `record` and `append` alike: a subclass that shows the history
   *  as it goes (the proxy's) overrides this one hook, so that no way in can skip it. */
  protected landed(): void {}

  /** The virtual time an entry made now is stamped with. */
  get now(): number {
    return this.time.now;
  }

  /** Record an entry its maker stamped with `now` (`t` first, as `record` puts it): the fault network's
   *  entries, made once per request, skip `record`'s copy of each (a spread over many shapes, slow). */
  append(e: HistoryEntry): void {
    if (this.closed) return;
    this.entries.push(e);
    this.time.activity++;
    this.landed();
  }
}

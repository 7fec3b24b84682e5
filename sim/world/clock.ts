// Virtual time and the event queue. Events are ordered by time, then by when they were scheduled;
// when several are due at the same instant, the run's schedule picks which goes first, so the
// order of in-flight responses, reconnects and faults is part of the (shrinkable) input.

export interface Scheduled<T> {
  at: number;
  seq: number;
  item: T;
}

export class EventQueue<T> {
  private items: Scheduled<T>[] = [];
  private seq = 0;
  private picks = 0;
  now = 0;

  constructor(private readonly schedule: readonly number[] = []) {}

  push(delayMs: number, item: T): void {
    const entry = { at: this.now + delayMs, seq: this.seq++, item };
    // Kept sorted by (at, seq): queues here hold a handful of events, so insertion is cheapest.
    let i = this.items.length;
    while (i > 0 && this.items[i - 1]!.at > entry.at) i--;
    // Most events are due last; a splice that inserts at the end was a tenth of a run, and one in
    // the middle costs more than moving the few later items by hand.
    const items = this.items;
    if (i === items.length) items.push(entry);
    else {
      items.push(items[items.length - 1]!);
      for (let j = items.length - 2; j > i; j--) items[j] = items[j - 1]!;
      items[i] = entry;
    }
  }

  get size(): number {
    return this.items.length;
  }

  /** Events in the order they will be taken (ties aside). */
  entries(): readonly Scheduled<T>[] {
    return this.items;
  }

  /** How much of the schedule has been used: with the rest of it, all that decides future picks. */
  get picksUsed(): number {
    return this.picks;
  }

  /** An independent copy (items are shared: they are never mutated). */
  clone(): EventQueue<T> {
    const q = new EventQueue<T>(this.schedule);
    q.items = [...this.items];
    q.seq = this.seq;
    q.picks = this.picks;
    q.now = this.now;
    return q;
  }

  /** Take the next event, advancing the clock to it. Ties are broken by the schedule, FIFO once it runs out. */
  pop(): Scheduled<T> | undefined {
    const first = this.items[0];
    if (!first) return undefined;
    let ties = 1;
    while (ties < this.items.length && this.items[ties]!.at === first.at) ties++;
    let index = 0;
    if (ties > 1 && this.picks < this.schedule.length) index = this.schedule[this.picks++]! % ties;
    const next = index === 0 ? this.items.shift()! : this.items.splice(index, 1)[0]!;
    this.now = next.at;
    return next;
  }
}

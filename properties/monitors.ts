// The properties of properties.ts as monitors: each reads a history one entry at a time and keeps
// only what the rest of the run can still change its verdict with. Exhaustive exploration
// (search/exhaustive/explore.ts) merges two worlds only when their machines, queues *and* monitors agree, so a
// monitor's `key` must say everything the future depends on, with times relative to now.
// `test/properties/monitors.test.ts` requires each monitor to give its property's verdict, holds
// and reached alike, on random histories over every knob and fault.
import { progressEncoding, type Transport } from '../models/capabilities.ts';
import type { History, HistoryEntry } from '../core/history.ts';
import { callOutcomes, outcomeOf, type Outcome, type Reference } from './outcomes.ts';
import { PROPERTIES, RECOVERY_GRACE, type Property } from './properties.ts';

export interface MonitorVerdict {
  holds: boolean;
  reached: boolean;
}

export interface Monitor {
  readonly property: string;
  observe(e: HistoryEntry): void;
  /** The verdict once every entry of the run has been observed. */
  verdict(): MonitorVerdict;
  /** What the rest of the run can still depend on, canonically; times relative to `now`. */
  key(now: number): string;
  clone(): Monitor;
}

/** "Some call ended after a fault had acted" (at or after the first applied fault's instant). */
class EndAfterFault {
  applied = false;
  lastEnd = -1;
  reached = false;
  observe(e: HistoryEntry): void {
    if (e.kind === 'fault' && e.applied && !this.applied) {
      this.applied = true;
      if (this.lastEnd === e.t) this.reached = true;
    } else if (e.kind === 'end') {
      this.lastEnd = e.t;
      if (this.applied) this.reached = true;
    }
  }
  key(now: number): string {
    return this.reached ? 'R' : this.applied ? 'A' : this.lastEnd === now ? 'e' : '-';
  }
  copy(): EndAfterFault {
    return Object.assign(new EndAfterFault(), this);
  }
}

class SilentCall implements Monitor {
  bad = false;
  after = new EndAfterFault();
  constructor(
    readonly property: string,
    private readonly kind: 'silent-empty' | 'silent-hang',
    private readonly reference: Reference,
  ) {}
  observe(e: HistoryEntry): void {
    this.after.observe(e);
    if (!this.bad && e.kind === 'end' && outcomeOf(e, this.reference) === this.kind) this.bad = true;
  }
  verdict(): MonitorVerdict {
    return this.bad ? { holds: false, reached: true } : { holds: true, reached: this.after.reached };
  }
  key(now: number): string {
    return this.bad ? 'V' : this.after.key(now);
  }
  clone(): Monitor {
    const m = new SilentCall(this.property, this.kind, this.reference);
    m.bad = this.bad;
    m.after = this.after.copy();
    return m;
  }
}

class CapsImmutable implements Monitor {
  readonly property = 'caps-immutable';
  violated = false;
  reached = false;
  /** First capabilities of each session the server may still re-initialize (ids are never reused). */
  first = new Map<string, string>();
  observe(e: HistoryEntry): void {
    if (this.violated || e.kind !== 'server') return;
    if (e.note === 'session-opened') this.first.set(e.session, JSON.stringify(e.caps));
    else if (e.note === 'session-forgotten') this.first.delete(e.session);
    if (e.note === 'reinitialized' || e.note === 'reinit-rejected') this.reached = true;
    if (e.note === 'reinitialized' && e.newSession === undefined && this.first.get(e.session) !== JSON.stringify(e.caps)) this.violated = true;
  }
  verdict(): MonitorVerdict {
    return this.violated ? { holds: false, reached: true } : { holds: true, reached: this.reached };
  }
  key(): string {
    if (this.violated) return 'V';
    return `${this.reached ? 'r' : '-'}${[...this.first].sort(([a], [b]) => (a < b ? -1 : 1)).join(';')}`;
  }
  clone(): Monitor {
    const m = new CapsImmutable();
    m.violated = this.violated;
    m.reached = this.reached;
    m.first = new Map(this.first);
    return m;
  }
}

class TransportExpressible implements Monitor {
  readonly property = 'transport-expressible';
  violated = false;
  reached = false;
  transport = new Map<string, Transport>();
  observe(e: HistoryEntry): void {
    if (this.violated) return;
    if (e.kind === 'server' && e.note === 'session-opened') this.transport.set(e.session, e.transport);
    else if (e.kind === 'server' && e.note === 'reinitialized' && e.newSession === undefined) this.transport.set(e.session, e.transport);
    else if (e.kind === 'server' && e.note === 'transport-changed') this.transport.set(e.session, e.to);
    else if (e.kind === 'client' && e.note === 'admit') {
      const actual = this.transport.get(e.session);
      if (actual === undefined) return;
      if (actual !== 'streamable-http') this.reached = true;
      if (e.caps.some(({ encoding }) => encoding !== progressEncoding(actual))) this.violated = true;
    }
  }
  verdict(): MonitorVerdict {
    return this.violated ? { holds: false, reached: true } : { holds: true, reached: this.reached };
  }
  key(): string {
    if (this.violated) return 'V';
    return `${this.reached ? 'r' : '-'}${[...this.transport].sort(([a], [b]) => (a < b ? -1 : 1)).join(';')}`;
  }
  clone(): Monitor {
    const m = new TransportExpressible();
    m.violated = this.violated;
    m.reached = this.reached;
    m.transport = new Map(this.transport);
    return m;
  }
}

const TYPES = { sse: 'text/event-stream', json: 'application/json' } as const;

class ContentTypeConsistent implements Monitor {
  readonly property = 'content-type-consistent';
  violated = false;
  after = new EndAfterFault();
  observe(e: HistoryEntry): void {
    this.after.observe(e);
    if (!this.violated && e.kind === 'client' && e.note === 'read' && e.expected !== 'any' && e.contentType !== TYPES[e.expected]) this.violated = true;
  }
  verdict(): MonitorVerdict {
    return this.violated ? { holds: false, reached: true } : { holds: true, reached: this.after.reached };
  }
  key(now: number): string {
    return this.violated ? 'V' : this.after.key(now);
  }
  clone(): Monitor {
    const m = new ContentTypeConsistent();
    m.violated = this.violated;
    m.after = this.after.copy();
    return m;
  }
}

class Recovers implements Monitor {
  readonly property = 'recovers';
  faultSeen = false;
  lastFault = -1;
  /** Calls invoked strictly after the last fault, and their outcomes once they end. */
  after = new Map<number, Outcome | null>();
  constructor(private readonly reference: Reference) {}
  observe(e: HistoryEntry): void {
    if (e.kind === 'fault') {
      this.faultSeen = true;
      this.lastFault = e.t;
      this.after.clear();
    } else if (e.kind === 'invoke') {
      if (this.faultSeen && e.t > this.lastFault) this.after.set(e.callId, null);
    } else if (e.kind === 'end' && this.after.has(e.callId)) {
      this.after.set(e.callId, outcomeOf(e, this.reference));
    }
  }
  verdict(): MonitorVerdict {
    const after = [...this.after].sort(([a], [b]) => a - b);
    if (!this.faultSeen || after.length <= RECOVERY_GRACE) return { holds: true, reached: false };
    return { holds: after.slice(RECOVERY_GRACE).every(([, o]) => o === 'ok'), reached: true };
  }
  key(now: number): string {
    if (!this.faultSeen) return '-';
    return `${this.lastFault === now ? '=' : '<'}${[...this.after].sort(([a], [b]) => a - b).join(';')}`;
  }
  clone(): Monitor {
    const m = new Recovers(this.reference);
    m.faultSeen = this.faultSeen;
    m.lastFault = this.lastFault;
    m.after = new Map(this.after);
    return m;
  }
}

/** Any other property (a designer's own): keep the whole history and judge it at the end. Sound,
 *  but its key is the history itself, so exploration merges nothing for it. */
class WholeHistory implements Monitor {
  entries: HistoryEntry[] = [];
  constructor(
    private readonly p: Property,
    private readonly reference: Reference,
    private readonly frame: Omit<History, 'entries'>,
  ) {}
  get property(): string {
    return this.p.name;
  }
  observe(e: HistoryEntry): void {
    this.entries.push(e);
  }
  verdict(): MonitorVerdict {
    const h: History = { ...this.frame, entries: this.entries };
    const v = this.p.check(h, callOutcomes(h, this.reference));
    return { holds: v.holds, reached: v.reached };
  }
  key(now: number): string {
    return JSON.stringify(this.entries.map((e) => ({ ...e, t: e.t - now })));
  }
  clone(): Monitor {
    const m = new WholeHistory(this.p, this.reference, this.frame);
    m.entries = [...this.entries];
    return m;
  }
}

const BUILT_IN: Record<string, (ref: Reference) => Monitor> = {
  'no-silent-empty': (ref) => new SilentCall('no-silent-empty', 'silent-empty', ref),
  'no-silent-hang': (ref) => new SilentCall('no-silent-hang', 'silent-hang', ref),
  'caps-immutable': () => new CapsImmutable(),
  'transport-expressible': () => new TransportExpressible(),
  'content-type-consistent': () => new ContentTypeConsistent(),
  recovers: (ref) => new Recovers(ref),
};

/** The monitor of a property: its own for the six of DESIGN.md, the whole history otherwise. */
export function monitorFor(p: Property, reference: Reference, frame: Omit<History, 'entries'>): Monitor {
  const make = PROPERTIES.includes(p) ? BUILT_IN[p.name] : undefined;
  return make ? make(reference) : new WholeHistory(p, reference, frame);
}

/** Several monitors fed the same entries: a world's entry sink during exploration. */
export class MonitorSet {
  /** A `budget-exhausted` entry was seen: this run was cut short by the world's step budget. */
  budgetExhausted = false;
  constructor(readonly monitors: Monitor[]) {}
  push(e: HistoryEntry): void {
    if (e.kind === 'budget-exhausted') this.budgetExhausted = true;
    for (const m of this.monitors) m.observe(e);
  }
  key(now: number): string {
    return this.monitors.map((m) => m.key(now)).join('|');
  }
  clone(): MonitorSet {
    const s = new MonitorSet(this.monitors.map((m) => m.clone()));
    s.budgetExhausted = this.budgetExhausted;
    return s;
  }
}

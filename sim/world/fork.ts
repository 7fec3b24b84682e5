// A world exhaustive exploration can steer (search/exhaustive/explore.ts): it pauses just before the network
// carries each request, carries it with the faults its caller chooses, and forks. A fork copies
// what decides the world's future and shares the machines' snapshots, queued items and effects
// (immutable data). `stateKey` says what that future depends on, so that equal worlds are merged.
import type { FaultName } from '../../models/faults.ts';
import type { ClientEffect } from '../../models/client-context.ts';
import type { ServerContext } from '../../models/server-context.ts';
import { answerOf, finishedBy } from '../core/answer-ledger.ts';
import { Hasher, Place, digestOf, type Digest } from '../core/digest.ts';
import { World, type EntrySink, type WorldState } from './world.ts';

/** JSON of immutable objects (machine contexts, queued items), computed once per object: forked
 *  worlds share them, and exploration keys every world it reaches. */
const jsonCache = new WeakMap<object, string>();
function jsonOf(o: object): string {
  let s = jsonCache.get(o);
  if (s === undefined) jsonCache.set(o, (s = JSON.stringify(o)));
  return s;
}

/** The server's context as the state key reads it: without its record of run calls where
 *  `server.idempotency` is not `request-key`, for there the record never decides what comes next
 *  (models/server-sessions.ts `remembered`), and two worlds that differ only in it have one future.
 *  The copy keeps the context's shape and key order, so that its JSON and digest are what they were
 *  before the record was kept under every value. The knob's read counts (world/knob-reads.ts): which
 *  states are merged decides an exploration's state count, and a search that counts its reads
 *  (search/certify.ts) is a function of the knobs it read, its merges included. */
const keyedContexts = new WeakMap<object, object>();
function keyedServerContext(ctx: ServerContext): object {
  if (ctx.finished === undefined) return ctx;
  if (ctx.policy.idempotency === 'request-key') return ctx;
  let keyed = keyedContexts.get(ctx);
  // Every other field as it is, in its place (a field added to the context later is keyed too).
  if (keyed === undefined) keyedContexts.set(ctx, (keyed = { ...ctx, finished: undefined }));
  return keyed;
}

/** The requests whose answers a later entry can still name, in order: the attempts the client still
 *  waits on, and the calls its pending effects end. */
function namedRequests(s: WorldState): number[] {
  const named = new Set<number>();
  const ctx = s.client.context as { inflight: Record<number, { attemptId: number }> };
  for (const f of Object.values(ctx.inflight)) named.add(f.attemptId);
  const pending = s.pending;
  if (pending)
    for (let i = pending.index; i < pending.effects.length; i++) {
      const e = pending.effects[i]!;
      if (e.type === 'call-ended') named.add(e.req);
    }
  return [...named].sort((a, b) => a - b);
}

/** The places (core/digest.ts) of a fingerprint's parts, shared by one exploration's worlds. */
class FingerprintPlaces {
  readonly client = new Place();
  readonly server = new Place();
  private readonly queue: Place[] = [];
  private readonly effects: Place[] = [];
  private readonly faults: Place[] = [];
  /** The queue's item at position i. */
  queued(i: number): Place {
    return (this.queue[i] ??= new Place());
  }
  /** The pending effect at position i (from the one about to be performed). */
  effect(i: number): Place {
    return (this.effects[i] ??= new Place());
  }
  /** The response faults of the i-th queued request bound for the server. */
  faultsAt(i: number): Place {
    return (this.faults[i] ??= new Place());
  }
}

const NO_FAULTS: readonly FaultName[] = Object.freeze([]);

interface ContextDigest {
  context: object;
  digest: Digest;
}

export class ForkableWorld extends World {
  private places = new FingerprintPlaces();
  /** Each machine's context at this world's last fingerprint, or at its parent's, with its digest: a
   *  fork whose machine has not stepped since is not hashed again. (A WeakMap of every context's
   *  digest did this for the whole exploration; its inserts were the hottest line of its profile, about
   *  5% of it, 546 of some 10,800 one-millisecond samples.) */
  private clientMemo: ContextDigest | null = null;
  private serverMemo: ContextDigest | null = null;

  /** Start pausing before every request the network is to carry, writing entries to `sink`.
   *  Returns true when the run ended without carrying any request. */
  startPaused(sink: EntrySink): boolean {
    this.s.pauses = true;
    this.writeTo(sink);
    this.start();
    return this.loop();
  }

  /** The world's state record, read-only (tests, tools): a fork clones it with `cloneState`. */
  get state(): Readonly<WorldState> {
    return this.s;
  }

  /** Virtual now, and the index of the request a paused world is about to carry. */
  get now(): number {
    return this.s.queue.now;
  }
  get nextRequest(): number {
    return this.s.carried;
  }

  /** Carry the pending request with these faults (fired in this order), then run to the next pause
   *  (false) or to the end of the run (true). */
  resume(faults: readonly FaultName[]): boolean {
    const pending = this.s.pending;
    if (!pending) throw new Error('internal: resume() on a world that is not paused');
    this.s.pending = null;
    const send = pending.effects[pending.index] as Extract<ClientEffect, { type: 'send' }>;
    this.carry(send.req, send.request, faults);
    this.perform(pending.effects, pending.index + 1);
    return this.s.pending ? false : this.loop();
  }

  /** An independent copy writing to `sink`. Machine snapshots, queued items and effects are
   *  immutable data and are shared; the coverage it reaches is added to the same `Reach`. */
  fork(sink: EntrySink): ForkableWorld {
    const w = new ForkableWorld(this.input, this.options, this.reach, this);
    w.places = this.places;
    w.clientMemo = this.clientMemo;
    w.serverMemo = this.serverMemo;
    w.writeTo(sink);
    return w;
  }

  /**
   * Everything that decides this world's future, as one canonical string: two worlds with equal
   * keys go on identically (up to a shift of virtual time). Times are relative to now; of the
   * per-request bookkeeping only what a later entry can still name is kept: the answers of the
   * attempts the client still waits on, and the response faults of requests not yet answered.
   * The step counter is left out: a run that exhausts its budget is reported by the explorer.
   */
  stateKey(): string {
    const s = this.s;
    const now = s.queue.now;
    const rest = s.pending ? s.pending.effects.slice(s.pending.index) : [];
    const answers = namedRequests(s).map((r) => `${r}:${answerOf(s, r)}${finishedBy(s, r) ? ':finished' : ''}`);
    const entries = s.queue.entries();
    const queued = entries.map((e) => `${e.at - now}:${jsonOf(e.item)}`);
    const atServer = entries.flatMap((e) => (e.item.to === 'server' ? [[e.item.req, s.responseFaults.get(e.item.req) ?? []]] : []));
    // Parts joined by newlines (JSON never contains a raw one), not nested JSON: no re-escaping.
    return [
      s.clientState,
      jsonOf(s.client.context as object),
      s.serverState,
      jsonOf(keyedServerContext(s.server.context as ServerContext)),
      `${queued.length}\n${queued.join('\n')}`,
      JSON.stringify(rest),
      JSON.stringify([s.carried, s.issued, [...s.ended].sort((a, b) => a - b), answers, atServer, s.queue.picksUsed]),
    ].join('\n');
  }

  /**
   * `stateKey() + extra` as a 64-bit digest, without writing the key: the same parts in the same
   * order, each object by its digest (core/digest.ts), which a big object keeps, so that a big part
   * an earlier state had too is not hashed again. Equal keys give equal fingerprints, and different keys different ones
   * barring a collision (test/sim/world/state-fingerprint.test.ts holds the two to each other).
   * `digest` is core/digest.ts's kept one; tests pass `freshDigestOf` to check that none is stale.
   */
  fingerprint(extra: string, digest: (o: object) => Digest = digestOf): Digest {
    const s = this.s;
    const now = s.queue.now;
    // The places' remembered digests are digestOf's own: a test's fresh `digest` checks them too.
    const places = digest === digestOf ? this.places : null;
    const h = new Hasher();
    h.string(s.clientState);
    const client = s.client.context as object;
    if (places === null) h.digest(digest(client));
    else {
      if (this.clientMemo?.context !== client) this.clientMemo = { context: client, digest: places.client.of(client) };
      h.digest(this.clientMemo.digest);
    }
    h.string(s.serverState);
    // Keyed by the context as it is: its keyed form is a function of it (and its knob read was
    // counted when the memo was made, in the policy every fork shares).
    const server = s.server.context as ServerContext;
    if (places === null) h.digest(digest(keyedServerContext(server)));
    else {
      if (this.serverMemo?.context !== server) this.serverMemo = { context: server, digest: places.server.of(keyedServerContext(server)) };
      h.digest(this.serverMemo.digest);
    }
    const entries = s.queue.entries();
    h.word(entries.length);
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      h.number(e.at - now);
      h.digest(places ? places.queued(i).of(e.item) : digest(e.item));
    }
    const pending = s.pending;
    const from = pending ? pending.index : 0;
    const effects = pending ? pending.effects : [];
    h.word(effects.length - from);
    for (let i = from; i < effects.length; i++) h.digest(places ? places.effect(i - from).of(effects[i]!) : digest(effects[i]!));
    h.number(s.carried);
    h.number(s.issued);
    const ended = [...s.ended].sort((a, b) => a - b);
    h.word(ended.length);
    for (const e of ended) h.number(e);
    const answered = namedRequests(s);
    h.word(answered.length);
    for (const r of answered) {
      h.number(r);
      h.string(answerOf(s, r));
      h.word(finishedBy(s, r) ? 1 : 0);
    }
    let atServer = 0;
    for (const e of entries) {
      if (e.item.to !== 'server') continue;
      h.number(e.item.req);
      const faults = s.responseFaults.get(e.item.req) ?? NO_FAULTS;
      h.digest(places ? places.faultsAt(atServer).of(faults) : digest(faults));
      atServer++;
    }
    h.word(atServer);
    h.number(s.queue.picksUsed);
    h.string(extra);
    return h.done();
  }
}

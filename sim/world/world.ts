// The deterministic world: the agent's workload drives the client machine; the client's requests
// cross the network, where the fault plan acts; the server machine answers; everything lands in
// one history. Time is the event queue's virtual clock, every choice comes from the plan or the
// schedule, and every run is bounded by a step budget.
//
// For exhaustive exploration a world can also pause just before the network carries each request
// and be copied (world/fork.ts: resume with chosen faults, fork, key the state).
//
// Why one file: this is the run loop and its dispatch (client step, network, server
// step, delivery), each of which reads and writes the same state record on every event, and the
// engine benchmark's hot path. What can stand apart already does: the state and its one clone
// (state.ts), the options and steppers (options.ts), the clock (clock.ts), pausing and forking
// (fork.ts), the fault rules and their loop (models/network.ts) and the answer ledger
// (core/answer-ledger.ts). Splitting the steps further would pass that record between files for
// every event without making any step easier to read.
import type { ClientContext, ClientEffect, ClientEvent } from '../../models/client-context.ts';
import type { FaultName } from '../../models/faults.ts';
import { contentType, type HttpRequest, type HttpResponse } from '../../models/messages.ts';
import { applyRequestFaults, applyResponseFaults, fireBeforeFaults, isResponseFault } from '../../models/network.ts';
import type { BeforeSite, FaultEffect } from '../../models/network.ts';
import { additionsUsed, PolicyError } from '../../models/additions.ts';
import type { ServerEffect, ServerEvent } from '../../models/server.ts';
import { EventQueue } from './clock.ts';
import { answerDelivered, answerOf, answerSent, finishedBy, serverFinished } from '../core/answer-ledger.ts';
import { HISTORY_VERSION, type Answer, type History, type HistoryEntry } from '../core/history.ts';
import { sortPlan, type FaultPlan } from '../core/plan.ts';
import { stateName, type Stepped, type Stepper } from './engine/step.ts';
import { nextCalls } from '../core/workload.ts';
import { noteEntry } from './note-entry.ts';
import { cloneState, type Item, type WorldState } from './state.ts';
import { ALL_KNOBS, trackedTwin } from './knob-reads.ts';
import { runCensus } from './run-census.ts';
import { combinationKnobValues, type Combination } from '../../models/policies.ts';

import { enginesFor } from './options.ts';
import { emptyReach, union, type MachineReach } from '../core/reach.ts';
import { ALL_WANTED, wantsOf, type EntrySink, type Reach, type RunInput, type WorldOptions } from './options.ts';

export type { Item, Pending, WorldState } from './state.ts';
export { DEFAULT_WORLD, emptyReach, type Engine, type EntrySink, type Reach, type RunInput, type WorldOptions } from './options.ts';

/** What the world keeps besides its state (world/state.ts): the run's plan and its machines' steppers. */
export class World {
  private readonly entries: HistoryEntry[] = [];
  private sink: EntrySink = this.entries;
  /** Whether the sink reads these kinds of entry (EntrySink.reads); the others are not built. */
  private wants = ALL_WANTED;
  private readonly plan: FaultPlan;
  private readonly clientStepper: Stepper<ClientEvent, ClientEffect>;
  private readonly serverStepper: Stepper<ServerEvent, ServerEffect>;
  /** Everything a run changes; a fork clones it (protected for world/fork.ts). */
  protected readonly s: WorldState;
  /** How `before` faults reach into the machines (models/network.ts's loop calls it); made on first use. */
  private site: BeforeSite | undefined;
  /** Per machine, the transitions (by the stepper's index) this world has added to its reach. */
  private readonly clientSeen: Uint8Array;
  private readonly serverSeen: Uint8Array;
  /** The states and transitions reached; a history gets a copy only if forks share them. */
  protected readonly reach: Reach;
  private readonly ownsReach: boolean;

  constructor(
    protected readonly input: RunInput,
    protected readonly options: WorldOptions,
    /** Shared with forks (world/fork.ts); a world of its own otherwise. */
    reach?: Reach,
    /** Start as a copy of this world (a fork, world/fork.ts). */
    from?: World,
    /** What the machines see of the combination (default: the input's): its tracked twin, for a run that counts its reads (world/knob-reads.ts). */
    policies: Combination = input.combination,
  ) {
    this.ownsReach = reach === undefined;
    this.reach = reach ?? emptyReach();
    ({ client: this.clientStepper, server: this.serverStepper } = enginesFor(options.engine, options.additions));
    this.clientSeen = new Uint8Array(this.clientStepper.transitionNames?.length ?? 0);
    this.serverSeen = new Uint8Array(this.serverStepper.transitionNames?.length ?? 0);
    runCensus.probe?.(from !== undefined);
    if (from) {
      this.plan = from.plan;
      this.s = cloneState(from.s);
      return;
    }
    this.plan = sortPlan(input.plan);
    const client = this.clientStepper.initial({ policy: policies.client, deadlineMs: options.deadlineMs });
    const server = this.serverStepper.initial({ policy: policies.server });
    this.s = {
      queue: new EventQueue(input.schedule ?? []),
      client: client.snapshot,
      server: server.snapshot,
      clientState: stateName(client.snapshot.value),
      serverState: stateName(server.snapshot.value),
      carried: 0,
      issued: 0,
      steps: 0,
      ended: new Set(),
      // The answer ledger (core/answer-ledger.ts `emptyLedger`), written out: a spread in the
      // middle of a literal is V8's slow path, once per world.
      answers: [],
      responseFaults: new Map(),
      pauses: false,
      pending: null,
    };
    this.reach.client.states.add(this.s.clientState);
    this.reach.server.states.add(this.s.serverState);
  }

  run(): History {
    try {
      this.start();
      this.loop();
    } catch (e) {
      // A designer's policy failed mid-run: keep what happened up to there for the report.
      if (e instanceof PolicyError) e.history ??= this.history();
      throw e;
    }
    return this.history();
  }

  protected start(): void {
    this.s.queue.push(0, { to: 'client', event: { type: 'CONNECT' } });
    this.issueCalls();
  }

  /** Process events until the run is over (true), or until a paused world reaches a `send` (false). */
  protected loop(): boolean {
    const s = this.s;
    while (s.ended.size < this.input.workload.length) {
      const next = s.queue.pop();
      if (!next) break;
      if (++s.steps > this.options.stepBudget) {
        this.record({ t: this.s.queue.now, kind: 'budget-exhausted', steps: this.options.stepBudget });
        // The built-ins always terminate well inside the budget; a run that does not, with a
        // designer's policy in it, is that policy's failure.
        const used = additionsUsed(
          this.input.combination,
          this.plan.map((f) => f.fault),
          this.options.additions,
        );
        if (used.length > 0)
          throw new PolicyError(
            used.join(', '),
            `the run did not terminate within the step budget (${this.options.stepBudget} events)`,
            'no-termination',
          );
        break;
      }
      this.dispatch(next.item);
      if (s.pending) return false;
    }
    this.endUnfinished();
    return true;
  }

  protected history(): History {
    const { combination, workload, schedule = [] } = this.input;
    const coverage = this.ownsReach ? this.reach : union(this.reach);
    return { version: HISTORY_VERSION, combination, workload, plan: this.plan, schedule, entries: this.entries, coverage };
  }

  /** Write entries to `sink` from now on (a world that keeps no history, or a fork). */
  protected writeTo(sink: EntrySink): void {
    this.sink = sink;
    this.wants = wantsOf(sink.reads);
  }

  /** Callers write `t` first (an entry's keys keep that order in every report) and build the
   *  entry once: copying it here to add the time was an eighth of the engine's time. */
  private record(e: HistoryEntry): void {
    this.sink.push(e);
  }

  private dispatch(item: Item): void {
    if (item.to === 'client') {
      if (item.event.type === 'CALL') {
        const { callId, method, progress, idempotent } = item.event;
        const t = this.s.queue.now;
        this.record(
          idempotent ? { t, kind: 'invoke', callId, method, progress, idempotent } : { t, kind: 'invoke', callId, method, progress },
        );
      }
      this.stepClient(item.event);
    } else if (item.to === 'server') {
      this.stepServer({ type: 'REQUEST', req: item.req, request: item.request });
    } else {
      answerDelivered(this.s, item.req);
      if (this.wants.deliver) this.record({ t: this.s.queue.now, kind: 'deliver', req: item.req });
      this.stepClient({ type: 'RESPONSE', req: item.req, response: item.response });
    }
  }

  /** Step the client and perform its effects; `nested` steps (a config reset while a request is
   *  carried) perform theirs at once, and never send. */
  private stepClient(event: ClientEvent, nested = false): void {
    const s = this.s;
    const stepped = this.clientStepper.step(s.client, event);
    const { snapshot, effects } = stepped;
    s.client = snapshot;
    const to = stateName(snapshot.value);
    this.reached(stepped, this.clientStepper, this.reach.client, this.clientSeen);
    if (to !== s.clientState) {
      if (this.wants.state) this.record({ t: this.s.queue.now, kind: 'state', machine: 'client', from: s.clientState, to });
      this.reach.client.states.add(to);
    }
    s.clientState = to;
    if (nested) {
      for (const effect of effects) {
        if (effect.type === 'send') throw new Error('internal: a nested client step sent a request');
        this.performClient(effect);
      }
    } else {
      this.perform(effects, 0);
    }
  }

  protected perform(effects: readonly ClientEffect[], from: number): void {
    for (let i = from; i < effects.length; i++) {
      const effect = effects[i]!;
      if (this.s.pauses && effect.type === 'send') {
        this.s.pending = { effects, index: i };
        return;
      }
      this.performClient(effect);
    }
  }

  /** Add the transitions a step took to the reach: by index where the stepper gives them, each
   *  name once per world (`seen`; a fork starts with none, and adding again is harmless). */
  private reached(stepped: Stepped<unknown>, stepper: Stepper<never, unknown>, reach: MachineReach, seen: Uint8Array): void {
    const takenIndex = stepped.takenIndex;
    if (takenIndex !== undefined) {
      for (let i = 0; i < takenIndex.length; i++) {
        const n = takenIndex[i]!;
        if (seen[n] === 0) {
          seen[n] = 1;
          reach.transitions.add(stepper.transitionNames![n]!);
        }
      }
    }
    const taken = stepped.taken;
    if (taken) for (const id of taken) reach.transitions.add(id);
  }

  /** Step the server and perform its effects; returns how many sessions the step forgot. */
  private stepServer(event: ServerEvent): number {
    const s = this.s;
    const stepped = this.serverStepper.step(s.server, event);
    const { snapshot, effects } = stepped;
    s.server = snapshot;
    const to = stateName(snapshot.value);
    this.reached(stepped, this.serverStepper, this.reach.server, this.serverSeen);
    if (to !== s.serverState) {
      if (this.wants.state) this.record({ t: this.s.queue.now, kind: 'state', machine: 'server', from: s.serverState, to });
      this.reach.server.states.add(to);
    }
    s.serverState = to;
    let forgot = 0;
    for (const effect of effects) {
      if (effect.type === 'note') {
        if (effect.note.note === 'call-finished') serverFinished(s, effect.note.req);
        else if (effect.note.note === 'session-forgotten') forgot++;
        if (this.wants.server) this.record(noteEntry(this.s.queue.now, 'server', effect.note));
      } else {
        this.respond(effect.req, effect.response, 'server');
      }
    }
    return forgot;
  }

  private performClient(effect: ClientEffect): void {
    switch (effect.type) {
      case 'send':
        return this.carry(effect.req, effect.request, this.faultsAt(effect.req));
      case 'timer':
        return this.s.queue.push(effect.afterMs, { to: 'client', event: effect.event });
      case 'note':
        if (this.wants.client) this.record(noteEntry(this.s.queue.now, 'client', effect.note));
        return;
      case 'call-ended':
        return this.callEnded(effect);
      case 'raise':
        throw new Error('raised events are handled inside the machine step');
    }
  }

  private faultsAt(n: number): readonly FaultName[] {
    let faults: FaultName[] | null = null;
    for (const f of this.plan) if (f.at === n) (faults ??= []).push(f.fault);
    return faults ?? NO_FAULTS;
  }

  /** The network carries request n: `before` faults fire, then the proxy and load balancer act. */
  protected carry(req: number, request: HttpRequest, faults: readonly FaultName[]): void {
    const s = this.s;
    if (req !== s.carried) throw new Error(`client request ${req} is not the network's request ${s.carried}`);
    s.carried++;
    if (faults.length > 0 && fireBeforeFaults(faults, request, this.beforeSite(), this.options.additions) instanceof Promise) {
      throw new Error('internal: a model-tier hook is asynchronous');
    }
    const body = request.body;
    const { method, headers } = request;
    const t = s.queue.now;
    if (this.wants.request)
      this.record(
        body.rpc === 'tools/call'
          ? { t, kind: 'request', req, method, rpc: body.rpc, headers, callId: body.callId }
          : { t, kind: 'request', req, method, rpc: body.rpc, headers },
      );
    // Most requests carry no fault: no rule to ask, nothing to keep for them (`respond` reads a
    // missing entry as none).
    if (faults.length === 0) {
      s.queue.push(this.options.latencyMs, { to: 'server', req, request });
      return;
    }
    const verdict = applyRequestFaults(request, faults, this.options.additions, combinationKnobValues(this.input.combination));
    this.recordFaults(req, verdict.effects);
    s.responseFaults.set(
      req,
      faults.filter((f) => isResponseFault(f, this.options.additions)),
    );
    if (verdict.answer) this.respond(req, verdict.answer, 'load-balancer');
    else s.queue.push(this.options.latencyMs, { to: 'server', req, request: verdict.request });
  }

  private beforeSite(): BeforeSite {
    // Methods, not arrow functions: tsx names every arrow in an object literal with a
    // defineProperty call (esbuild's keepNames), once per world that fires a `before` fault.
    const world = this;
    return (this.site ??= {
      resetClientConfig() {
        world.stepClient({ type: 'CONFIG_RESET' }, true);
        return null;
      },
      forgetSessions(which, sessionId) {
        return world.stepServer(which === 'all' ? { type: 'RESTART' } : { type: 'EXPIRE', sessionId });
      },
      hold() {
        // The fault's entry goes before what it caused, but says what that was (how many sessions it forgot).
        const sink = world.sink;
        const held: HistoryEntry[] = [];
        world.sink = held;
        return (effect) => {
          world.sink = sink;
          world.recordFaults(world.s.carried - 1, [effect]);
          for (const e of held) sink.push(e);
        };
      },
    });
  }

  private recordFaults(at: number, effects: readonly FaultEffect[]): void {
    for (const e of effects) this.record({ t: this.s.queue.now, kind: 'fault', fault: e.fault, at, applied: e.applied, detail: e.detail });
  }

  /** A response leaves the server (or the load balancer) toward the client, through the response faults. */
  private respond(req: number, response: HttpResponse, from: 'server' | 'load-balancer'): void {
    const faults = this.s.responseFaults.get(req);
    // Most responses meet no fault: no verdict to make for them.
    let res = response;
    let delay = this.options.latencyMs * (from === 'server' ? 1 : 2);
    let lost = false;
    if (faults && faults.length > 0) {
      const verdict = applyResponseFaults(response, faults, from, this.options.additions, combinationKnobValues(this.input.combination));
      this.recordFaults(req, verdict.effects);
      res = verdict.response;
      delay += verdict.delayMs;
      lost = verdict.lostAnswer;
    }
    answerSent(this.s, req, lost);
    this.s.queue.push(delay, { to: 'deliver', req, response: res });
    if (!this.wants.response) return;
    const t = this.s.queue.now;
    const contentTypeOf = contentType(res) ?? null;
    const sessionId = res.headers['mcp-session-id'] ?? null;
    const deliverAt = t + delay;
    // Two literals rather than one with a spread in its middle (V8's slow path); the same keys in the same order.
    this.record(
      res.body.kind === 'sse'
        ? {
            t,
            kind: 'response',
            req,
            status: res.status,
            contentType: contentTypeOf,
            sessionId,
            body: 'sse',
            events: res.body.events.length,
            complete: res.body.complete,
            deliverAt,
            from,
          }
        : { t, kind: 'response', req, status: res.status, contentType: contentTypeOf, sessionId, body: res.body.kind, deliverAt, from },
    );
  }

  /** How a call that ends by the deadline, or never, left its last request: the answer and whether the server finished it. */
  private judged(req: number): { answer: Answer; serverFinished: boolean } {
    return { answer: answerOf(this.s, req), serverFinished: finishedBy(this.s, req) };
  }

  private callEnded(effect: Extract<ClientEffect, { type: 'call-ended' }>): void {
    const { callId, attempts, req } = effect;
    if (effect.end === 'deadline') {
      this.record({ t: this.s.queue.now, kind: 'end', callId, attempts, req, end: 'deadline', ...this.judged(req) });
    } else if (effect.end === 'error') {
      this.record({ t: this.s.queue.now, kind: 'end', callId, attempts, req, end: 'error', reason: effect.reason });
    } else {
      this.record({ t: this.s.queue.now, kind: 'end', callId, attempts, req, end: 'result', content: effect.content });
    }
    this.s.ended.add(callId);
    this.issueCalls();
  }

  private issueCalls(): void {
    const s = this.s;
    for (const i of nextCalls(this.input.workload, s.issued, s.ended)) {
      const step = this.input.workload[i]!;
      const { method, progress } = step;
      s.queue.push(0, {
        to: 'client',
        event: step.idempotent
          ? { type: 'CALL', callId: i, method, progress, idempotent: true }
          : { type: 'CALL', callId: i, method, progress },
      });
      s.issued++;
    }
  }

  /** Calls still open when the run stopped (budget, or nothing left to happen) ended by nothing. */
  private endUnfinished(): void {
    const s = this.s;
    const { inflight } = s.client.context as ClientContext;
    for (let callId = 0; callId < s.issued; callId++) {
      if (s.ended.has(callId)) continue;
      const f = inflight.find((x): x is Extract<typeof x, { kind: 'call' }> => x.kind === 'call' && x.call.callId === callId);
      const req = f?.attemptId ?? -1;
      this.record({ t: this.s.queue.now, kind: 'end', callId, attempts: f?.call.attempt ?? 1, req, end: 'never', ...this.judged(req) });
    }
  }
}

const NO_FAULTS: readonly FaultName[] = Object.freeze([]);

/** Run one workload under one fault plan to completion (or the step budget) and return its history. */
export function runWorld(input: RunInput, world: WorldOptions): History {
  return new World(input, world).run();
}

/** `runWorld`, and the knobs of its combination the run read (every knob where they cannot be told). */
export function runWorldReading(input: RunInput, world: WorldOptions): { history: History; reads: number } {
  const twin = trackedTwin(input.combination);
  if (!twin) return { history: runWorld(input, world), reads: ALL_KNOBS };
  twin.reads.mask = 0;
  const history = new World(input, world, undefined, undefined, twin.combination).run();
  return { history, reads: twin.reads.mask };
}

// The deterministic world: the agent's workload drives the client machine; the client's requests
// cross the network, where the fault plan acts; the server machine answers; everything lands in
// one history. Time is the event queue's virtual clock, every choice comes from the plan or the
// schedule, and every run is bounded by a step budget.
//
// For exhaustive exploration a world can also pause just before the network carries each request
// and be copied (world/fork.ts: resume with chosen faults, fork, key the state).
import { clientMachine, clientReducers } from '../models/client.ts';
import type { ClientEffect, ClientEvent } from '../models/client-context.ts';
import { faultKind, type FaultName } from '../models/faults.ts';
import { contentType, type HttpRequest, type HttpResponse } from '../models/messages.ts';
import { applyRequestFaults, applyResponseFaults, isResponseFault, type FaultEffect } from '../models/network.ts';
import type { Combination } from '../models/policies.ts';
import { extensionsUsed, PolicyError } from '../models/registry.ts';
import { serverMachine, serverReducers, type ServerEffect, type ServerEvent } from '../models/server.ts';
import { compiledStepper } from './engine/compiled-step.ts';
import { EventQueue } from './clock.ts';
import { HISTORY_VERSION, type Answer, type History, type HistoryEntry } from '../core/history.ts';
import { emptyReach, union, type Reach } from '../core/reach.ts';
import { sortPlan, type FaultPlan } from '../core/plan.ts';
import { stateName, xstateStepper, type Stepped, type Stepper } from './engine/step.ts';
import { nextCalls, type Workload } from '../core/workload.ts';

export interface WorldOptions {
  /** One-way network latency, virtual ms. */
  latencyMs: number;
  /** The client's per-request deadline, virtual ms (seed 003's client: 30 s). */
  deadlineMs: number;
  /** Queue events a run may process before it is stopped and marked. */
  stepBudget: number;
  /** How the machines are stepped: XState's own `transition()`, or the same statecharts compiled
   *  to a table (world/engine/compiled-step.ts; identical histories, several times faster), or steppers of
   *  your own (the benchmark's hand-written reducer). */
  engine: 'compiled' | 'xstate' | Engine;
}

export interface Engine {
  client: Stepper<ClientEvent, ClientEffect>;
  server: Stepper<ServerEvent, ServerEffect>;
}

/** Where a world writes its history entries: an array for a run, the oracles' monitors when exploring. */
export interface EntrySink {
  push(entry: HistoryEntry): unknown;
}

/** The states and transitions a world reached, per machine (core/reach.ts). */
export { emptyReach, type Reach } from '../core/reach.ts';

export const DEFAULT_WORLD: WorldOptions = { latencyMs: 5, deadlineMs: 30_000, stepBudget: 10_000, engine: 'compiled' };

export interface RunInput {
  combination: Combination;
  workload: Workload;
  plan: FaultPlan;
  /** Picks among events due at the same instant (see EventQueue). */
  schedule?: readonly number[];
}

export type Item =
  | { to: 'client'; event: ClientEvent }
  | { to: 'server'; req: number; request: HttpRequest }
  | { to: 'deliver'; req: number; response: HttpResponse };

const ENGINES = {
  xstate: () => ({
    client: xstateStepper<ClientEvent, ClientEffect>(clientMachine, clientReducers),
    server: xstateStepper<ServerEvent, ServerEffect>(serverMachine, serverReducers),
  }),
  compiled: () => ({
    client: compiledStepper<ClientEvent, ClientEffect>(clientMachine, clientReducers),
    server: compiledStepper<ServerEvent, ServerEffect>(serverMachine, serverReducers),
  }),
};
const steppers = new Map<'compiled' | 'xstate', Engine>();
function enginesFor(engine: WorldOptions['engine']): Engine {
  if (typeof engine === 'object') return engine;
  let s = steppers.get(engine);
  if (!s) steppers.set(engine, (s = ENGINES[engine]()));
  return s;
}

/** A client step whose effects are being performed; a paused world stops before a `send`. */
export interface Pending {
  effects: readonly ClientEffect[];
  index: number;
}

/** Fields are protected for world/fork.ts, which pauses, forks and keys worlds for exploration. */
export class World {
  private readonly entries: HistoryEntry[] = [];
  protected sink: EntrySink = this.entries;
  protected queue: EventQueue<Item>;
  private readonly plan: FaultPlan;
  private readonly clientStepper: Stepper<ClientEvent, ClientEffect>;
  private readonly serverStepper: Stepper<ServerEvent, ServerEffect>;
  protected client: Stepped<ClientEffect>['snapshot'];
  protected server: Stepped<ServerEffect>['snapshot'];
  protected clientState: string;
  protected serverState: string;
  protected carried = 0;
  protected issued = 0;
  private steps = 0;
  protected ended = new Set<number>();
  private inTransit = new Set<number>();
  private delivered = new Set<number>();
  private lost = new Set<number>();
  protected finished = new Set<number>();
  protected responseFaults = new Map<number, FaultName[]>();
  /** Exploration: stop before each `send`, leaving it `pending` (world/fork.ts resumes it). */
  protected pauses = false;
  protected pending: Pending | null = null;

  constructor(
    protected readonly input: RunInput,
    protected readonly options: WorldOptions,
    protected readonly reach: Reach = emptyReach(),
    /** Start as a copy of this world (a fork, world/fork.ts). */
    from?: World,
  ) {
    if (from) {
      // Through the constructor, so that forks keep the class's shape (an Object.assign'd copy is slower to run).
      this.plan = from.plan;
      this.queue = from.queue.clone();
      this.clientStepper = from.clientStepper;
      this.serverStepper = from.serverStepper;
      this.client = from.client;
      this.server = from.server;
      this.clientState = from.clientState;
      this.serverState = from.serverState;
      this.carried = from.carried;
      this.issued = from.issued;
      this.steps = from.steps;
      this.ended = new Set(from.ended);
      this.inTransit = new Set(from.inTransit);
      this.delivered = new Set(from.delivered);
      this.lost = new Set(from.lost);
      this.finished = new Set(from.finished);
      this.responseFaults = new Map(from.responseFaults);
      this.pauses = from.pauses;
      this.pending = from.pending && { ...from.pending };
      return;
    }
    this.plan = sortPlan(input.plan);
    this.queue = new EventQueue(input.schedule ?? []);
    ({ client: this.clientStepper, server: this.serverStepper } = enginesFor(options.engine));
    const c = this.clientStepper.initial({ policy: input.combination.client, deadlineMs: options.deadlineMs });
    const s = this.serverStepper.initial({ policy: input.combination.server });
    this.client = c.snapshot;
    this.server = s.snapshot;
    this.clientState = stateName(this.client.value);
    this.serverState = stateName(this.server.value);
    this.reach.client.states.add(this.clientState);
    this.reach.server.states.add(this.serverState);
  }

  run(): History {
    this.start();
    try {
      this.loop();
    } catch (e) {
      // A designer's policy failed mid-run: keep what happened up to there for the report.
      if (e instanceof PolicyError) e.history ??= this.history();
      throw e;
    }
    return this.history();
  }

  protected start(): void {
    this.queue.push(0, { to: 'client', event: { type: 'CONNECT' } });
    this.issueCalls();
  }

  /** Process events until the run is over (true), or until a paused world reaches a `send` (false). */
  protected loop(): boolean {
    while (this.ended.size < this.input.workload.length) {
      const next = this.queue.pop();
      if (!next) break;
      if (++this.steps > this.options.stepBudget) {
        this.record({ kind: 'budget-exhausted', steps: this.options.stepBudget });
        // The built-ins always terminate well inside the budget; a run that does not, with a
        // designer's policy in it, is that policy's failure.
        const used = extensionsUsed(this.input.combination, this.plan.map((f) => f.fault));
        if (used.length > 0) throw new PolicyError(used.join(', '), `the run did not terminate within the step budget (${this.options.stepBudget} events)`, 'no-termination');
        break;
      }
      this.dispatch(next.item);
      if (this.pending) return false;
    }
    this.endUnfinished();
    return true;
  }

  protected history(): History {
    const { combination, workload, schedule = [] } = this.input;
    const coverage = union(this.reach);
    return { version: HISTORY_VERSION, combination, workload, plan: this.plan, schedule, entries: this.entries, coverage };
  }

  private record(e: DistributiveOmit<HistoryEntry, 't'>): void {
    this.sink.push({ t: this.queue.now, ...e } as HistoryEntry);
  }

  private dispatch(item: Item): void {
    if (item.to === 'client') {
      if (item.event.type === 'CALL') this.record({ kind: 'invoke', callId: item.event.callId, method: item.event.method, progress: item.event.progress });
      this.stepClient(item.event);
    } else if (item.to === 'server') {
      this.stepServer({ type: 'REQUEST', req: item.req, request: item.request });
    } else {
      this.inTransit.delete(item.req);
      this.delivered.add(item.req);
      this.record({ kind: 'deliver', req: item.req });
      this.stepClient({ type: 'RESPONSE', req: item.req, response: item.response });
    }
  }

  /** Step the client and perform its effects; `nested` steps (a config reset while a request is
   *  carried) perform theirs at once, and never send. */
  private stepClient(event: ClientEvent, nested = false): void {
    const { snapshot, effects, taken } = this.clientStepper.step(this.client, event);
    this.client = snapshot;
    const to = stateName(snapshot.value);
    if (taken) for (const id of taken) this.reach.client.transitions.add(id);
    if (to !== this.clientState) {
      this.record({ kind: 'state', machine: 'client', from: this.clientState, to });
      this.reach.client.states.add(to);
    }
    this.clientState = to;
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
      if (this.pauses && effect.type === 'send') {
        this.pending = { effects, index: i };
        return;
      }
      this.performClient(effect);
    }
  }

  private stepServer(event: ServerEvent): void {
    const { snapshot, effects, taken } = this.serverStepper.step(this.server, event);
    this.server = snapshot;
    const to = stateName(snapshot.value);
    if (taken) for (const id of taken) this.reach.server.transitions.add(id);
    if (to !== this.serverState) {
      this.record({ kind: 'state', machine: 'server', from: this.serverState, to });
      this.reach.server.states.add(to);
    }
    this.serverState = to;
    for (const effect of effects) {
      if (effect.type === 'note') {
        if (effect.note.note === 'call-finished') this.finished.add(effect.note.req);
        this.record({ kind: 'server', ...effect.note });
      } else {
        this.respond(effect.req, effect.response, 'server');
      }
    }
  }

  private performClient(effect: ClientEffect): void {
    switch (effect.type) {
      case 'send':
        return this.carry(effect.req, effect.request, this.faultsAt(effect.req));
      case 'timer':
        return this.queue.push(effect.afterMs, { to: 'client', event: effect.event });
      case 'note':
        return this.record({ kind: 'client', ...effect.note });
      case 'call-ended':
        return this.callEnded(effect);
      case 'raise':
        throw new Error('raised events are handled inside the machine step');
    }
  }

  private faultsAt(n: number): FaultName[] {
    return this.plan.filter((f) => f.at === n).map((f) => f.fault);
  }

  /** The network carries request n: `before` faults fire, then the proxy and load balancer act. */
  protected carry(req: number, request: HttpRequest, faults: readonly FaultName[]): void {
    if (req !== this.carried) throw new Error(`client request ${req} is not the network's request ${this.carried}`);
    this.carried++;
    for (const fault of faults) this.fireBefore(fault, request);
    const body = request.body;
    this.record({ kind: 'request', req, method: request.method, rpc: body.rpc, headers: request.headers, ...(body.rpc === 'tools/call' ? { callId: body.callId } : {}) });
    const verdict = applyRequestFaults(request, faults);
    this.recordFaults(req, verdict.effects);
    this.responseFaults.set(req, faults.filter(isResponseFault));
    if (verdict.answer) this.respond(req, verdict.answer, 'load-balancer');
    else this.queue.push(this.options.latencyMs, { to: 'server', req, request: verdict.request });
  }

  private fireBefore(fault: FaultName, request: HttpRequest): void {
    const kind = faultKind(fault);
    if (kind === 'config-reset') {
      this.recordFaults(this.carried - 1, [{ fault, applied: true, detail: 'client config reset to defaults' }]);
      this.stepClient({ type: 'CONFIG_RESET' }, true);
    } else if (kind === 'session-expire' || kind === 'server-restart') {
      // The fault's entry goes before the server's notes, but says how many sessions it forgot.
      const sink = this.sink;
      const notes: HistoryEntry[] = [];
      this.sink = notes;
      this.stepServer(kind === 'server-restart' ? { type: 'RESTART' } : { type: 'EXPIRE', sessionId: request.headers['mcp-session-id'] ?? null });
      this.sink = sink;
      const forgot = notes.filter((e) => e.kind === 'server' && e.note === 'session-forgotten').length;
      const at = this.carried - 1;
      this.record({ kind: 'fault', fault, at, applied: forgot > 0, detail: forgot > 0 ? `server forgot ${forgot} session(s)` : 'no live session to forget' });
      for (const e of notes) sink.push(e);
    }
  }

  private recordFaults(at: number, effects: FaultEffect[]): void {
    for (const e of effects) this.record({ kind: 'fault', fault: e.fault, at, applied: e.applied, detail: e.detail });
  }

  /** A response leaves the server (or the load balancer) toward the client, through the response faults. */
  private respond(req: number, response: HttpResponse, from: 'server' | 'load-balancer'): void {
    const verdict = applyResponseFaults(response, this.responseFaults.get(req) ?? []);
    this.recordFaults(req, verdict.effects);
    const res = verdict.response;
    const delay = this.options.latencyMs * (from === 'server' ? 1 : 2) + verdict.delayMs;
    this.record({
      kind: 'response',
      req,
      status: res.status,
      contentType: contentType(res) ?? null,
      sessionId: res.headers['mcp-session-id'] ?? null,
      body: res.body.kind,
      ...(res.body.kind === 'sse' ? { events: res.body.events.length, complete: res.body.complete } : {}),
      deliverAt: this.queue.now + delay,
      from,
    });
    if (verdict.lostAnswer) this.lost.add(req);
    this.inTransit.add(req);
    this.queue.push(delay, { to: 'deliver', req, response: res });
  }

  protected answer(req: number): Answer {
    if (this.lost.has(req)) return 'lost';
    if (this.inTransit.has(req)) return 'in-transit';
    if (this.delivered.has(req)) return 'delivered';
    return 'none';
  }

  private callEnded(effect: Extract<ClientEffect, { type: 'call-ended' }>): void {
    const { callId, attempts, req } = effect;
    if (effect.end === 'deadline') {
      this.record({ kind: 'end', callId, attempts, req, end: 'deadline', answer: this.answer(req), serverFinished: this.finished.has(req) });
    } else if (effect.end === 'error') {
      this.record({ kind: 'end', callId, attempts, req, end: 'error', reason: effect.reason });
    } else {
      this.record({ kind: 'end', callId, attempts, req, end: 'result', content: effect.content });
    }
    this.ended.add(callId);
    this.issueCalls();
  }

  private issueCalls(): void {
    for (const i of nextCalls(this.input.workload, this.issued, this.ended)) {
      const step = this.input.workload[i]!;
      this.queue.push(0, { to: 'client', event: { type: 'CALL', callId: i, method: step.method, progress: step.progress } });
      this.issued++;
    }
  }

  /** Calls still open when the run stopped (budget, or nothing left to happen) ended by nothing. */
  private endUnfinished(): void {
    const snapshot = this.client.context as { inflight: Record<number, { attemptId: number; call?: { callId: number; attempt: number } }> };
    for (let callId = 0; callId < this.issued; callId++) {
      if (this.ended.has(callId)) continue;
      const f = Object.values(snapshot.inflight).find((x) => x.call?.callId === callId);
      const req = f?.attemptId ?? -1;
      this.record({ kind: 'end', callId, attempts: f?.call?.attempt ?? 1, req, end: 'never', answer: this.answer(req), serverFinished: this.finished.has(req) });
    }
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Run one workload under one fault plan to completion (or the step budget) and return its history. */
export function runWorld(input: RunInput, options: Partial<WorldOptions> = {}): History {
  return new World(input, { ...DEFAULT_WORLD, ...options }).run();
}

// No longer timed by the bench (it runs through the same world, so its ratio to the engine said
// nothing about the limit: bench/minimal-reducer.ts is the floor now); kept with its differential
// test as a second implementation of the statecharts. The same client and server logic,
// stepped by a hand-written switch over state and event that calls the same reducers and guards
// directly: no table, no candidate loop, no generic event queue. What is left between this and
// the compiled engine is the cost of interpreting the statechart; what is left above this is the
// world (queue, network, history) and the reducers themselves. A test requires it to write the
// same histories as the compiled engine (test/bench/hand-stepper.test.ts).
import type { EventObject } from 'xstate';
import { clientGuards, clientMachine, clientReducers } from '../models/client.ts';
import type { ClientContext, ClientEffect, ClientEvent } from '../models/client-context.ts';
import { serverMachine, serverReducers, type ServerContext, type ServerEffect, type ServerEvent } from '../models/server.ts';
import type { Stepped, Stepper } from '../sim/world/engine/step.ts';
import { transitionId } from '../sim/world/engine/transitions.ts';
import type { Engine } from '../sim/world/world.ts';

/** A transition's name, as world/engine/transitions.ts spells it (for the history's coverage). */
const name = (source: string, event: string, guard?: string, target?: string) =>
  transitionId({
    source: { path: source.split('.') },
    eventType: event,
    guard,
    target: target ? [{ path: target.split('.') }] : undefined,
  });

type C = ClientContext;
type Snapshot = { value: string; context: unknown };
interface Result<F> {
  value: string;
  context: unknown;
  effects: F[];
  raised: EventObject[];
  taken: string[];
}

function apply<Ctx, E, F extends { type: string }>(r: Result<F>, reduce: (c: Ctx, e: E) => { context: Ctx; effects: F[] }, event: E): void {
  const out = reduce(r.context as Ctx, event);
  r.context = out.context;
  for (const f of out.effects) {
    if (f.type === 'raise') r.raised.push((f as unknown as { event: EventObject }).event);
    else r.effects.push(f);
  }
}

const g = clientGuards;
const R = clientReducers;

/** Every client transition's name, computed once; `NAMES['ready RESPONSE']` and so on. */
const N = (() => {
  const t: Record<string, string> = {};
  const add = (key: string, source: string, event: string, guard?: string, target?: string) =>
    (t[key] = name(source, event, guard, target));
  for (const state of [
    'idle',
    'connecting.initializing',
    'connecting.notifying',
    'reconnecting.initializing',
    'reconnecting.notifying',
    'ready',
    'dead',
  ]) {
    for (const event of ['RESPONSE', 'DEADLINE', 'CONFIG_RESET']) add(`${state} ${event}`, state, event);
  }
  add('idle CONNECT', 'idle', 'CONNECT', undefined, 'connecting');
  add('idle CALL', 'idle', 'CALL', undefined, 'connecting');
  add('idle ATTEMPT_FAILED', 'idle', 'ATTEMPT_FAILED', undefined, 'connecting');
  add('connecting CALL', 'connecting', 'CALL');
  add('reconnecting CALL', 'reconnecting', 'CALL');
  for (const phase of ['connecting', 'reconnecting']) {
    const back = phase === 'connecting' ? 'idle' : 'ready';
    for (const step of ['initializing', 'notifying']) {
      const state = `${phase}.${step}`;
      add(`${state} accepted`, state, 'RESPONSE', 'replyAccepted', step === 'initializing' ? `${phase}.notifying` : 'ready');
      add(`${state} reply`, state, 'RESPONSE', 'isHandshakeReply', back);
      add(`${state} deadline`, state, 'DEADLINE', 'isHandshakeDeadline', back);
    }
  }
  add('reconnecting.initializing gone', 'reconnecting.initializing', 'RESPONSE', 'replySessionGone', 'connecting');
  add('reconnecting.notifying gone', 'reconnecting.notifying', 'RESPONSE', 'replySessionGone', 'connecting');
  add('reconnecting.initializing rejected', 'reconnecting.initializing', 'RESPONSE', 'replyRejected', 'dead');
  add('reconnecting.initializing narrows', 'reconnecting.initializing', 'RESPONSE', 'replyNarrowsCapabilities', 'dead');
  add('ready CALL', 'ready', 'CALL');
  add('ready new', 'ready', 'ATTEMPT_FAILED', 'needsNewSession', 'connecting');
  add('ready replay', 'ready', 'ATTEMPT_FAILED', undefined, 'reconnecting');
  add('dead new', 'dead', 'CALL', 'reconnectsWithNewSession', 'connecting');
  add('dead CALL', 'dead', 'CALL');
  return t;
})();

type Reduce = (c: C, e: never) => { context: C; effects: ClientEffect[] };

function take(r: Result<ClientEffect>, key: string, reduce: Reduce, e: ClientEvent, to?: string): void {
  r.taken.push(N[key]!);
  apply(r, reduce, e as never);
  if (to) r.value = to;
}

const TRAFFIC: Record<string, { RESPONSE: string; DEADLINE: string; CONFIG_RESET: string }> = {};
for (const state of [
  'idle',
  'connecting.initializing',
  'connecting.notifying',
  'reconnecting.initializing',
  'reconnecting.notifying',
  'ready',
  'dead',
]) {
  TRAFFIC[state] = { RESPONSE: N[`${state} RESPONSE`]!, DEADLINE: N[`${state} DEADLINE`]!, CONFIG_RESET: N[`${state} CONFIG_RESET`]! };
}

/** Responses, deadlines and config resets of calls in flight, handled alike in every state. */
function callTraffic(r: Result<ClientEffect>, state: string, e: ClientEvent): void {
  if (e.type === 'RESPONSE') {
    r.taken.push(TRAFFIC[state]!.RESPONSE);
    apply(r, R.handleResponse, e);
  } else if (e.type === 'DEADLINE') {
    r.taken.push(TRAFFIC[state]!.DEADLINE);
    apply(r, R.handleDeadline, e);
  } else if (e.type === 'CONFIG_RESET') {
    r.taken.push(TRAFFIC[state]!.CONFIG_RESET);
    apply(r, R.resetConfig as Reduce, e as never);
  }
}

function stepClient(r: Result<ClientEffect>, e: ClientEvent): void {
  const args = { context: r.context as C, event: e };
  const state = r.value;
  switch (state) {
    case 'idle':
      if (e.type === 'CONNECT') return take(r, 'idle CONNECT', R.startConnect as Reduce, e, 'connecting.initializing');
      if (e.type === 'ATTEMPT_FAILED') return take(r, 'idle ATTEMPT_FAILED', R.startConnect as Reduce, e, 'connecting.initializing');
      if (e.type === 'CALL') {
        take(r, 'idle CALL', R.queueCall, e);
        return (apply(r, R.startConnect as Reduce, e as never), void (r.value = 'connecting.initializing'));
      }
      return callTraffic(r, state, e);
    case 'connecting.initializing':
      if (e.type === 'CALL') return take(r, 'connecting CALL', R.queueCall, e);
      if (e.type === 'RESPONSE' && g.replyAccepted(args))
        return take(r, 'connecting.initializing accepted', R.adoptNewSession, e, 'connecting.notifying');
      if (e.type === 'RESPONSE' && g.isHandshakeReply(args)) return take(r, 'connecting.initializing reply', R.failHandshake, e, 'idle');
      if (e.type === 'DEADLINE' && g.isHandshakeDeadline(args))
        return take(r, 'connecting.initializing deadline', R.failHandshake, e, 'idle');
      return callTraffic(r, state, e);
    case 'connecting.notifying':
      if (e.type === 'CALL') return take(r, 'connecting CALL', R.queueCall, e);
      if (e.type === 'RESPONSE' && g.replyAccepted(args))
        return take(r, 'connecting.notifying accepted', R.completeHandshake as Reduce, e, 'ready');
      if (e.type === 'RESPONSE' && g.isHandshakeReply(args)) return take(r, 'connecting.notifying reply', R.failHandshake, e, 'idle');
      if (e.type === 'DEADLINE' && g.isHandshakeDeadline(args)) return take(r, 'connecting.notifying deadline', R.failHandshake, e, 'idle');
      return callTraffic(r, state, e);
    case 'reconnecting.initializing':
      if (e.type === 'CALL') return take(r, 'reconnecting CALL', R.queueCall, e);
      if (e.type === 'RESPONSE') {
        if (g.replySessionGone(args))
          return take(r, 'reconnecting.initializing gone', R.startNewSession as Reduce, e, 'connecting.initializing');
        if (g.replyRejected(args)) return take(r, 'reconnecting.initializing rejected', R.killSession, e, 'dead');
        if (g.replyNarrowsCapabilities(args)) return take(r, 'reconnecting.initializing narrows', R.killSession, e, 'dead');
        if (g.replyAccepted(args)) return take(r, 'reconnecting.initializing accepted', R.adoptReplayResult, e, 'reconnecting.notifying');
        if (g.isHandshakeReply(args)) return take(r, 'reconnecting.initializing reply', R.failHandshake, e, 'ready');
      }
      if (e.type === 'DEADLINE' && g.isHandshakeDeadline(args))
        return take(r, 'reconnecting.initializing deadline', R.failHandshake, e, 'ready');
      return callTraffic(r, state, e);
    case 'reconnecting.notifying':
      if (e.type === 'CALL') return take(r, 'reconnecting CALL', R.queueCall, e);
      if (e.type === 'RESPONSE') {
        if (g.replyAccepted(args)) return take(r, 'reconnecting.notifying accepted', R.completeHandshake as Reduce, e, 'ready');
        if (g.replySessionGone(args))
          return take(r, 'reconnecting.notifying gone', R.startNewSession as Reduce, e, 'connecting.initializing');
        if (g.isHandshakeReply(args)) return take(r, 'reconnecting.notifying reply', R.failHandshake, e, 'ready');
      }
      if (e.type === 'DEADLINE' && g.isHandshakeDeadline(args))
        return take(r, 'reconnecting.notifying deadline', R.failHandshake, e, 'ready');
      return callTraffic(r, state, e);
    case 'ready':
      if (e.type === 'CALL') return take(r, 'ready CALL', R.callNow, e);
      if (e.type === 'ATTEMPT_FAILED') {
        if (g.needsNewSession(args)) return take(r, 'ready new', R.startNewSession as Reduce, e, 'connecting.initializing');
        return take(r, 'ready replay', R.startReplay as Reduce, e, 'reconnecting.initializing');
      }
      return callTraffic(r, state, e);
    case 'dead':
      if (e.type === 'CALL') {
        if (!g.reconnectsWithNewSession(args)) return take(r, 'dead CALL', R.failCallOnDeadSession, e);
        take(r, 'dead new', R.queueCall, e);
        return (apply(r, R.startNewSession as Reduce, e as never), void (r.value = 'connecting.initializing'));
      }
      return callTraffic(r, state, e);
  }
}

const serverGuards = serverMachine.implementations.guards as unknown as Record<
  string,
  (a: { context: ServerContext; event: ServerEvent }) => boolean
>;
type RequestBranch = [guard: string | null, reduce: keyof typeof serverReducers, opens: boolean];
/** The request branches of models/server.ts, per state, in order (null: the unguarded fallback). */
const REQUEST_BRANCHES: Record<string, RequestBranch[]> = {
  empty: [
    ['isNewHandshake', 'openSession', true],
    ['lacksSessionId', 'answerMissingSession', false],
    [null, 'answerSessionNotFound', false],
  ],
  serving: [
    ['isNewHandshake', 'openSession', true],
    ['isHandshakeOnUnknownSession', 'answerSessionNotFound', false],
    ['isReHandshake', 'reinitialize', false],
    ['lacksSessionId', 'answerMissingSession', false],
    ['isUnknownSession', 'answerSessionNotFound', false],
    ['isInitializedNotification', 'acknowledgeInitialized', false],
    ['isToolCall', 'callTool', false],
    ['isToolList', 'listTools', false],
    ['isResume', 'resumeStream', false],
  ],
};
/** Per server state, each request branch with its transition's name. */
const SERVER_BRANCHES: Record<
  string,
  { guard: (a: { context: ServerContext; event: ServerEvent }) => boolean; reduce: never; opens: boolean; name: string }[]
> = {};
for (const [state, branches] of Object.entries(REQUEST_BRANCHES)) {
  SERVER_BRANCHES[state] = branches.map(([guard, reduce, opens]) => ({
    guard: guard === null ? () => true : serverGuards[guard]!,
    reduce: serverReducers[reduce] as never,
    opens,
    name: name(state, 'REQUEST', guard ?? undefined, opens ? 'serving' : undefined),
  }));
}
const S = {
  emptyRestart: name('empty', 'RESTART'),
  emptyExpire: name('empty', 'EXPIRE'),
  servingRestart: name('serving', 'RESTART', undefined, 'empty'),
  servingLastExpire: name('serving', 'EXPIRE', 'isLastSession', 'empty'),
  servingExpire: name('serving', 'EXPIRE'),
};

function stepServer(r: Result<ServerEffect>, e: ServerEvent): void {
  const state = r.value;
  const args = { context: r.context as ServerContext, event: e };
  switch (e.type) {
    case 'REQUEST':
      for (const b of SERVER_BRANCHES[state]!) {
        if (!b.guard(args)) continue;
        r.taken.push(b.name);
        apply(r, b.reduce, e);
        if (b.opens) r.value = 'serving';
        return;
      }
      return;
    case 'RESTART':
      if (state === 'empty') return void r.taken.push(S.emptyRestart);
      r.taken.push(S.servingRestart);
      apply(r, serverReducers.forgetAll as never, e);
      r.value = 'empty';
      return;
    case 'EXPIRE':
      if (state === 'empty') {
        r.taken.push(S.emptyExpire);
        return;
      }
      if (serverGuards.isLastSession!(args)) {
        r.taken.push(S.servingLastExpire);
        r.value = 'empty';
      } else r.taken.push(S.servingExpire);
      apply(r, serverReducers.forgetSession as never, e);
  }
}

function handStepper<E extends EventObject, F>(
  machine: typeof clientMachine | typeof serverMachine,
  initialValue: string,
  step: (r: Result<F>, e: E) => void,
): Stepper<E, F> {
  const contextFactory = (machine.config as { context: (a: { input: unknown }) => unknown }).context;
  return {
    initial(input): Stepped<F> {
      return { snapshot: { value: initialValue, context: contextFactory({ input }) } as never, effects: [], taken: [] };
    },
    step(snapshot, event): Stepped<F> {
      const s = snapshot as unknown as Snapshot;
      const r: Result<F> = { value: s.value, context: s.context, effects: [], raised: [], taken: [] };
      step(r, event);
      for (let i = 0; i < r.raised.length; i++) step(r, r.raised[i] as E);
      return { snapshot: { value: r.value, context: r.context } as never, effects: r.effects, taken: r.taken };
    },
  };
}

export const handEngine: Engine = {
  client: handStepper<ClientEvent, ClientEffect>(clientMachine, 'idle', stepClient),
  server: handStepper<ServerEvent, ServerEffect>(serverMachine, 'empty', stepServer),
};

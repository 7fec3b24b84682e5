// The practical limit the benchmark compares the engine with: the same client and server logic,
// stepped by a hand-written switch over state and event that calls the same reducers and guards
// directly: no table, no candidate loop, no generic event queue. What is left between this and
// the compiled engine is the cost of interpreting the statechart; what is left above this is the
// world (queue, network, history) and the reducers themselves. A test requires it to write the
// same histories as the compiled engine (test/bench/hand-stepper.test.ts).
import type { EventObject } from 'xstate';
import { clientGuards, clientMachine, clientReducers } from '../models/client.ts';
import type { ClientContext, ClientEffect, ClientEvent } from '../models/client-context.ts';
import { serverMachine, serverReducers, type ServerContext, type ServerEffect, type ServerEvent } from '../models/server.ts';
import type { Stepped, Stepper } from '../sim/step.ts';
import { transitionId } from '../sim/transitions.ts';
import type { Engine } from '../sim/world.ts';

/** A transition's name, as sim/transitions.ts spells it (for the history's coverage). */
const name = (source: string, event: string, guard?: string, target?: string) =>
  transitionId({ source: { path: source.split('.') }, eventType: event, guard, target: target ? [{ path: target.split('.') }] : undefined });

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

// Transition names, computed once.
const T = {
  idleConnect: name('idle', 'CONNECT', undefined, 'connecting'),
  idleCall: name('idle', 'CALL', undefined, 'connecting'),
  idleFailed: name('idle', 'ATTEMPT_FAILED', undefined, 'connecting'),
  callQueued: { connecting: name('connecting', 'CALL'), reconnecting: name('reconnecting', 'CALL') } as Record<string, string>,
  readyCall: name('ready', 'CALL'),
  readyNew: name('ready', 'ATTEMPT_FAILED', 'needsNewSession', 'connecting'),
  readyReplay: name('ready', 'ATTEMPT_FAILED', undefined, 'reconnecting'),
  deadNew: name('dead', 'CALL', 'reconnectsWithNewSession', 'connecting'),
  deadFail: name('dead', 'CALL'),
};
const traffic = (state: string, event: string) => name(state, event);
const trafficNames = new Map<string, string>();
function trafficName(state: string, event: string): string {
  const key = `${state}|${event}`;
  let n = trafficNames.get(key);
  if (!n) trafficNames.set(key, (n = traffic(state, event)));
  return n;
}
const guardedNames = new Map<string, string>();
function guarded(state: string, event: string, guard: string, target: string | undefined): string {
  const key = `${state}|${event}|${guard}|${target ?? ''}`;
  let n = guardedNames.get(key);
  if (!n) guardedNames.set(key, (n = name(state, event, guard, target)));
  return n;
}

/** Responses, deadlines and config resets of calls in flight, handled alike in every state. */
function callTraffic(r: Result<ClientEffect>, state: string, e: ClientEvent): boolean {
  switch (e.type) {
    case 'RESPONSE':
      r.taken.push(trafficName(state, 'RESPONSE'));
      apply(r, R.handleResponse, e);
      return true;
    case 'DEADLINE':
      r.taken.push(trafficName(state, 'DEADLINE'));
      apply(r, R.handleDeadline, e);
      return true;
    case 'CONFIG_RESET':
      r.taken.push(trafficName(state, 'CONFIG_RESET'));
      apply(r, R.resetConfig, e as never);
      return true;
    default:
      return false;
  }
}

/** A handshake phase (`connecting.*`, `reconnecting.*`): its replies, then the calls' traffic. */
function handshake(r: Result<ClientEffect>, e: ClientEvent): void {
  const state = r.value;
  const context = r.context as C;
  const args = { context, event: e };
  const [phase, step] = state.split('.') as ['connecting' | 'reconnecting', 'initializing' | 'notifying'];
  const to = (guard: string, target: string, reduce: (c: C, e: never) => { context: C; effects: ClientEffect[] }, targetLeaf: string) => {
    r.taken.push(guarded(state, e.type, guard, target));
    apply(r, reduce, e as never);
    r.value = targetLeaf;
  };
  if (e.type === 'CALL') {
    r.taken.push(T.callQueued[phase]!);
    return apply(r, R.queueCall, e);
  }
  if (e.type === 'RESPONSE') {
    if (phase === 'connecting') {
      if (g.replyAccepted(args)) return step === 'initializing' ? to('replyAccepted', 'connecting.notifying', R.adoptNewSession, 'connecting.notifying') : to('replyAccepted', 'ready', R.completeHandshake, 'ready');
      if (g.isHandshakeReply(args)) return to('isHandshakeReply', 'idle', R.failHandshake, 'idle');
    } else if (step === 'initializing') {
      if (g.replySessionGone(args)) return to('replySessionGone', 'connecting', R.startNewSession, 'connecting.initializing');
      if (g.replyRejected(args)) return to('replyRejected', 'dead', R.killSession, 'dead');
      if (g.replyNarrowsCapabilities(args)) return to('replyNarrowsCapabilities', 'dead', R.killSession, 'dead');
      if (g.replyAccepted(args)) return to('replyAccepted', 'reconnecting.notifying', R.adoptReplayResult, 'reconnecting.notifying');
      if (g.isHandshakeReply(args)) return to('isHandshakeReply', 'ready', R.failHandshake, 'ready');
    } else {
      if (g.replyAccepted(args)) return to('replyAccepted', 'ready', R.completeHandshake, 'ready');
      if (g.replySessionGone(args)) return to('replySessionGone', 'connecting', R.startNewSession, 'connecting.initializing');
      if (g.isHandshakeReply(args)) return to('isHandshakeReply', 'ready', R.failHandshake, 'ready');
    }
  } else if (e.type === 'DEADLINE' && g.isHandshakeDeadline(args)) {
    const target = phase === 'connecting' ? 'idle' : 'ready';
    return to('isHandshakeDeadline', target, R.failHandshake, target);
  }
  callTraffic(r, state, e);
}

function stepClient(r: Result<ClientEffect>, e: ClientEvent): void {
  const context = r.context as C;
  switch (r.value) {
    case 'idle':
      if (e.type === 'CONNECT' || e.type === 'CALL' || e.type === 'ATTEMPT_FAILED') {
        r.taken.push(e.type === 'CONNECT' ? T.idleConnect : e.type === 'CALL' ? T.idleCall : T.idleFailed);
        if (e.type === 'CALL') apply(r, R.queueCall, e);
        apply(r, R.startConnect, e as never);
        r.value = 'connecting.initializing';
        return;
      }
      callTraffic(r, 'idle', e);
      return;
    case 'ready':
      if (e.type === 'CALL') {
        r.taken.push(T.readyCall);
        return apply(r, R.callNow, e);
      }
      if (e.type === 'ATTEMPT_FAILED') {
        if (g.needsNewSession({ context })) {
          r.taken.push(T.readyNew);
          apply(r, R.startNewSession, e as never);
          r.value = 'connecting.initializing';
        } else {
          r.taken.push(T.readyReplay);
          apply(r, R.startReplay, e as never);
          r.value = 'reconnecting.initializing';
        }
        return;
      }
      callTraffic(r, 'ready', e);
      return;
    case 'dead':
      if (e.type === 'CALL') {
        if (g.reconnectsWithNewSession({ context })) {
          r.taken.push(T.deadNew);
          apply(r, R.queueCall, e);
          apply(r, R.startNewSession, e as never);
          r.value = 'connecting.initializing';
        } else {
          r.taken.push(T.deadFail);
          apply(r, R.failCallOnDeadSession, e);
        }
        return;
      }
      callTraffic(r, 'dead', e);
      return;
    default:
      handshake(r, e);
  }
}

const serverGuards = serverMachine.implementations.guards as unknown as Record<string, (a: { context: ServerContext; event: ServerEvent }) => boolean>;
const REQUEST_BRANCHES: [guard: string, reduce: keyof typeof serverReducers, opens: boolean][] = [
  ['isNewHandshake', 'openSession', true],
  ['isHandshakeOnUnknownSession', 'answerSessionNotFound', false],
  ['isReHandshake', 'reinitialize', false],
  ['lacksSessionId', 'answerMissingSession', false],
  ['isUnknownSession', 'answerSessionNotFound', false],
  ['isInitializedNotification', 'acknowledgeInitialized', false],
  ['isToolCall', 'callTool', false],
  ['isToolList', 'listTools', false],
  ['isResume', 'resumeStream', false],
];

function stepServer(r: Result<ServerEffect>, e: ServerEvent): void {
  const state = r.value;
  const args = { context: r.context as ServerContext, event: e };
  switch (e.type) {
    case 'REQUEST':
      for (const [guard, reduce, opens] of REQUEST_BRANCHES) {
        if (!serverGuards[guard]!(args)) continue;
        r.taken.push(guarded(state, 'REQUEST', guard, opens ? 'serving' : undefined));
        apply(r, serverReducers[reduce] as never, e);
        if (opens) r.value = 'serving';
        return;
      }
      return;
    case 'RESTART':
      r.taken.push(state === 'serving' ? name('serving', 'RESTART', undefined, 'empty') : trafficName('empty', 'RESTART'));
      apply(r, serverReducers.forgetAll as never, e);
      r.value = 'empty';
      return;
    case 'EXPIRE':
      if (state === 'empty') {
        r.taken.push(trafficName('empty', 'EXPIRE'));
        return;
      }
      if (serverGuards.isLastSession!(args)) {
        r.taken.push(guarded('serving', 'EXPIRE', 'isLastSession', 'empty'));
        r.value = 'empty';
      } else r.taken.push(trafficName('serving', 'EXPIRE'));
      apply(r, serverReducers.forgetSession as never, e);
  }
}

function handStepper<E extends EventObject, F>(machine: typeof clientMachine | typeof serverMachine, initialValue: string, step: (r: Result<F>, e: E) => void): Stepper<E, F> {
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

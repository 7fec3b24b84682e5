// The client machine: connect → initialize → notifications/initialized → ready → tools/calls;
// after a failed call, reconnect per `client.reconnect` and retry the call once. The statechart
// holds the phases and the branches a handshake reply can take; the reducers in client-calls.ts,
// client-answers.ts and client-handshake.ts hold what each step does to the data.
import { setup } from 'xstate';
import { finalMessage, JSONRPC } from './messages.ts';
import { handleDeadline, handleResponse } from './client-answers.ts';
import { callNow, failCallOnDeadSession, queueCall, reissueWaiting } from './client-calls.ts';
import { initialContext, type ClientConfig, type ClientContext, type ClientEvent, type R } from './client-context.ts';
import {
  adoptDiscovered,
  adoptNewSession,
  discoverAnsweredAsLegacy,
  discoverListsModern,
  fallBackToInitialize,
  startDiscover,
  startStateless,
  adoptReplayResult,
  completeHandshake,
  failHandshake,
  killSession,
  narrowingError,
  startConnect,
  startNewSession,
  startReplay,
} from './client-handshake.ts';
import { MODERN, moduleKnobValues, type ClientPolicy } from './policies.ts';
import { reconnectStrategy, reconnectValues } from './reconnect.ts';
import { choose } from './knob-choice.ts';
import { effectAction, reducerActions, unbound } from './reducers.ts';
import { NO_ADDITIONS, type PolicyAdditions } from './additions.ts';
import { CONFIG_DEFAULTS, note, withContext } from './client-context.ts';

export const clientReducers = {
  startConnect,
  startNewSession,
  startReplay,
  startStateless,
  startDiscover,
  adoptDiscovered,
  fallBackToInitialize,
  reissueWaiting,
  adoptNewSession,
  adoptReplayResult,
  completeHandshake,
  failHandshake,
  killSession,
  queueCall,
  callNow,
  failCallOnDeadSession,
  handleResponse,
  handleDeadline,
  resetConfig: (ctx: ClientContext): R => ({
    context: withContext(ctx, { config: CONFIG_DEFAULTS }),
    effects: [note({ note: 'config-reset', config: CONFIG_DEFAULTS })],
  }),
} as const;

const afterFailure = (ctx: ClientContext, additions: PolicyAdditions) => {
  const s = ctx.session;
  const knobs = moduleKnobValues('client', ctx.policy);
  const view = { session: s && { id: s.id, gone: s.gone, dead: s.dead }, knobs };
  // replay-mutable and replay-cached both replay: a failure does not tell them apart (their handshakes do).
  return choose(ctx.policy, 'reconnect', reconnectValues(additions), (r) => reconnectStrategy(r, additions).afterFailure(view));
};
const reply = (ctx: ClientContext, e: ClientEvent) => e.type === 'RESPONSE' && ctx.handshake !== null && e.req === ctx.handshake.req;
const status = (e: ClientEvent) => (e.type === 'RESPONSE' ? e.response.status : 0);

/** The machine's guards with a run's additions bound (its reconnect strategies and guards). */
export const clientGuards = (additions: PolicyAdditions) => ({
  isHandshakeReply: ({ context, event }: { context: ClientContext; event: ClientEvent }) => reply(context, event),
  isHandshakeDeadline: ({ context, event }: { context: ClientContext; event: ClientEvent }) =>
    event.type === 'DEADLINE' && context.handshake !== null && event.req === context.handshake.req,
  replyAccepted: ({ context, event }: { context: ClientContext; event: ClientEvent }) =>
    reply(context, event) &&
    (context.handshake!.phase === 'initialize' ? status(event) === 200 : status(event) === 202 || status(event) === 200),
  replySessionGone: ({ context, event }: { context: ClientContext; event: ClientEvent }) => reply(context, event) && status(event) === 404,
  replyRejected: ({ context, event }: { context: ClientContext; event: ClientEvent }) => {
    if (!reply(context, event) || status(event) !== 400 || event.type !== 'RESPONSE') return false;
    const m = finalMessage(event.response);
    return m !== undefined && 'error' in m && m.error.code === JSONRPC.invalidRequest;
  },
  replyNarrowsCapabilities: ({ context, event }: { context: ClientContext; event: ClientEvent }) =>
    reply(context, event) && status(event) === 200 && narrowingError(context, event, additions) !== null,
  needsNewSession: ({ context }: { context: ClientContext }) =>
    context.session === null || context.session.gone || afterFailure(context, additions) === 'new-session',
  reconnectsWithNewSession: ({ context }: { context: ClientContext }) => afterFailure(context, additions) === 'new-session',
  keepsSession: ({ context }: { context: ClientContext }) => afterFailure(context, additions) === 'keep',
  speaksStateless: ({ context }: { context: ClientContext }) => context.revision === MODERN,
  negotiates: ({ context }: { context: ClientContext }) => context.revision === null,
  discoverListsModern: ({ context, event }: { context: ClientContext; event: ClientEvent }) =>
    reply(context, event) && discoverListsModern(event),
  discoverAnsweredAsLegacy: ({ context, event }: { context: ClientContext; event: ClientEvent }) =>
    reply(context, event) && discoverAnsweredAsLegacy(event),
});

/** How a client without a session starts: 2026-07-28 needs nothing, `negotiate` asks first. */
function opening(then: readonly (keyof typeof clientReducers)[] = []) {
  const with_ = (a: keyof typeof clientReducers) => (then.length ? [...then, a] : a);
  return [
    { guard: 'speaksStateless', target: 'ready', actions: with_('startStateless') },
    { guard: 'negotiates', target: 'discovering', actions: with_('startDiscover') },
    { target: 'connecting', actions: with_('startConnect') },
  ] as const;
}

/** Responses and deadlines of calls in flight are handled the same in every state. */
const CALL_TRAFFIC = {
  RESPONSE: { actions: 'handleResponse' },
  DEADLINE: { actions: 'handleDeadline' },
  CONFIG_RESET: { actions: 'resetConfig' },
} as const;

type Branch = { guard?: keyof ReturnType<typeof clientGuards>; target: string; actions: keyof typeof clientReducers };

/**
 * One phase of a handshake (waiting for the `initialize` reply, or for the `initialized` ack): the
 * reply either passes the phase's special cases (`before`), is accepted, or fails the handshake back
 * to `failTarget`; anything else is call traffic. A deadline on the handshake request fails it too.
 */
function handshakePhase(accepted: Omit<Branch, 'guard'>, failTarget: string, before: Branch[] = []) {
  return {
    on: {
      RESPONSE: [
        ...before,
        { guard: 'replyAccepted', ...accepted },
        { guard: 'isHandshakeReply', target: failTarget, actions: 'failHandshake' },
        { actions: 'handleResponse' },
      ],
      DEADLINE: [{ guard: 'isHandshakeDeadline', target: failTarget, actions: 'failHandshake' }, { actions: 'handleDeadline' }],
      CONFIG_RESET: { actions: 'resetConfig' },
    },
  } as const;
}

export interface ClientInput {
  policy: ClientPolicy;
  deadlineMs: number;
  config?: ClientConfig;
}

/** The statechart, its implementations named but `unbound` (models/reducers.ts): what reads its
 *  structure (coverage, the compiled engine) takes it as is; what steps it takes `clientMachineFor`. */
export const clientMachine = setup({
  types: {
    context: {} as ClientContext,
    events: {} as ClientEvent,
    input: {} as ClientInput,
  },
  actions: { ...(unbound('client', clientReducers) as Record<keyof typeof clientReducers, never>), effect: effectAction },
  // The names only: every guard fails until `clientMachineFor` provides the bound ones.
  guards: unbound('client', clientGuards(NO_ADDITIONS)),
}).createMachine({
  id: 'client',
  context: ({ input }) => initialContext(input),
  initial: 'idle',
  states: {
    /** No session. The first call (or CONNECT) opens one. */
    idle: {
      on: {
        CONNECT: [...opening()],
        CALL: [...opening(['queueCall'])],
        ATTEMPT_FAILED: [...opening()],
        ...CALL_TRAFFIC,
      },
    },
    /** `negotiate`: waiting for the answer to `server/discover`. */
    discovering: {
      on: {
        CALL: { actions: 'queueCall' },
        RESPONSE: [
          { guard: 'discoverListsModern', target: 'ready', actions: 'adoptDiscovered' },
          { guard: 'discoverAnsweredAsLegacy', target: 'connecting', actions: 'fallBackToInitialize' },
          { guard: 'isHandshakeReply', target: 'idle', actions: 'failHandshake' },
          { actions: 'handleResponse' },
        ],
        DEADLINE: [{ guard: 'isHandshakeDeadline', target: 'idle', actions: 'failHandshake' }, { actions: 'handleDeadline' }],
        CONFIG_RESET: { actions: 'resetConfig' },
      },
    },
    /** Opening a new session: a first connect, or `new-session` after a failure or a 404. */
    connecting: {
      initial: 'initializing',
      on: { CALL: { actions: 'queueCall' } },
      states: {
        initializing: handshakePhase({ target: 'notifying', actions: 'adoptNewSession' }, '#client.idle'),
        notifying: handshakePhase({ target: '#client.ready', actions: 'completeHandshake' }, '#client.idle'),
      },
    },
    /** Replaying `initialize` on the same session (`replay-mutable`, `replay-cached`). */
    reconnecting: {
      initial: 'initializing',
      on: { CALL: { actions: 'queueCall' } },
      states: {
        initializing: handshakePhase({ target: 'notifying', actions: 'adoptReplayResult' }, '#client.ready', [
          { guard: 'replySessionGone', target: '#client.connecting', actions: 'startNewSession' },
          { guard: 'replyRejected', target: '#client.dead', actions: 'killSession' },
          { guard: 'replyNarrowsCapabilities', target: '#client.dead', actions: 'killSession' },
        ]),
        notifying: handshakePhase({ target: '#client.ready', actions: 'completeHandshake' }, '#client.ready', [
          { guard: 'replySessionGone', target: '#client.connecting', actions: 'startNewSession' },
        ]),
      },
    },
    ready: {
      on: {
        CALL: { actions: 'callNow' },
        ATTEMPT_FAILED: [
          // 2026-07-28: nothing to reconnect; the failed calls are re-issued as new requests.
          { guard: 'speaksStateless', actions: 'reissueWaiting' },
          { guard: 'needsNewSession', target: 'connecting', actions: 'startNewSession' },
          // `keep-session`: no handshake; the failed calls go again on the same session.
          { guard: 'keepsSession', actions: 'reissueWaiting' },
          { target: 'reconnecting', actions: 'startReplay' },
        ],
        ...CALL_TRAFFIC,
      },
    },
    /** The server rejected a re-initialize, or `compare-init` refused a narrowed result. */
    dead: {
      on: {
        CALL: [
          { guard: 'reconnectsWithNewSession', target: 'connecting', actions: ['queueCall', 'startNewSession'] },
          { actions: 'failCallOnDeadSession' },
        ],
        ...CALL_TRAFFIC,
      },
    },
  },
});

/** The client machine with a run's additions bound to its implementations (XState's `provide`). */
export function clientMachineFor(additions: PolicyAdditions): typeof clientMachine {
  return clientMachine.provide({
    actions: reducerActions(clientReducers as never, additions) as never,
    guards: clientGuards(additions),
  });
}

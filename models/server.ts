// The server machine: a session table keyed by `Mcp-Session-Id`, the `server.*` policies, and how
// each transport encodes a tool's result and progress. Its transitions are the branches a request
// can take (a new session, each re-initialize policy, a call, a 404…), so coverage of the graph
// says which server behaviours a run exercised. The reducers live in server-sessions.ts (2025-11-25)
// and server-stateless.ts (2026-07-28); the state as data in server-context.ts.
import { setup } from 'xstate';
import { effectAction, reducerActions, unbound } from './reducers.ts';
import type { PolicyAdditions } from './additions.ts';
import { rpcOf as rpc, type ServerContext, type ServerEvent } from './server-context.ts';
import type { ServerPolicy } from './policies.ts';
import { sessionReducers } from './server-sessions.ts';
import { MODERN_BRANCHES, modernGuards, modernReducers } from './server-stateless.ts';

export type { ServerContext, ServerEffect, ServerEvent, ServerNote } from './server-context.ts';

export const serverReducers = { ...modernReducers, ...sessionReducers };

const sessionHeader = (e: ServerEvent) => (e.type === 'REQUEST' ? e.request.headers['mcp-session-id'] : undefined);
const known = (ctx: ServerContext, e: ServerEvent) => ctx.sessions[sessionHeader(e) ?? ''] !== undefined;

const REQUEST_BRANCHES = [
  { guard: 'isNewHandshake', actions: 'openSession', target: 'serving' },
  { guard: 'isHandshakeOnUnknownSession', actions: 'answerSessionNotFound' },
  { guard: 'isReHandshake', actions: 'reinitialize' },
  { guard: 'lacksSessionId', actions: 'answerMissingSession' },
  { guard: 'isUnknownSession', actions: 'answerSessionNotFound' },
  { guard: 'isInitializedNotification', actions: 'acknowledgeInitialized' },
  { guard: 'isToolCall', actions: 'callTool' },
  { guard: 'isToolList', actions: 'listTools' },
  { guard: 'isResume', actions: 'resumeStream' },
] as const;

export const serverMachine = setup({
  types: {
    context: {} as ServerContext,
    events: {} as ServerEvent,
    input: {} as { policy: ServerPolicy },
  },
  // Named, `unbound` (models/reducers.ts): what steps the machine takes `serverMachineFor`.
  actions: { ...(unbound('server', serverReducers) as Record<keyof typeof serverReducers, never>), effect: effectAction },
  guards: {
    isNewHandshake: ({ event }) => rpc(event) === 'initialize' && sessionHeader(event) === undefined,
    isHandshakeOnUnknownSession: ({ context, event }) => rpc(event) === 'initialize' && !known(context, event),
    isReHandshake: ({ event }) => rpc(event) === 'initialize',
    lacksSessionId: ({ event }) => sessionHeader(event) === undefined,
    isUnknownSession: ({ context, event }) => !known(context, event),
    isInitializedNotification: ({ event }) => rpc(event) === 'notifications/initialized',
    isToolCall: ({ event }) => rpc(event) === 'tools/call',
    isToolList: ({ event }) => rpc(event) === 'tools/list',
    isResume: ({ event }) => rpc(event) === 'resume',
    isLastSession: ({ context }) => Object.keys(context.sessions).length <= 1,
    ...modernGuards,
  },
}).createMachine({
  id: 'server',
  context: ({ input }) => ({ policy: input.policy, sessions: {}, nextSession: 1, nextStream: 1 }),
  initial: 'empty',
  states: {
    /** No live session: every request but a new handshake is answered 400/404. */
    empty: {
      on: {
        // With no session, only a new handshake can succeed; the other branches could never fire here.
        REQUEST: [
          ...MODERN_BRANCHES,
          { guard: 'isNewHandshake', actions: 'openSession', target: 'serving' },
          { guard: 'lacksSessionId', actions: 'answerMissingSession' },
          { actions: 'answerSessionNotFound' },
        ],
        RESTART: {},
        EXPIRE: {},
      },
    },
    serving: {
      on: {
        REQUEST: [...MODERN_BRANCHES, ...REQUEST_BRANCHES],
        RESTART: { target: 'empty', actions: 'forgetAll' },
        EXPIRE: [{ guard: 'isLastSession', target: 'empty', actions: 'forgetSession' }, { actions: 'forgetSession' }],
      },
    },
  },
});

/** The server machine with a run's additions bound to its reducers (XState's `provide`): its
 *  re-initialize policies. Its guards read no policy a module adds. */
export function serverMachineFor(additions: PolicyAdditions): typeof serverMachine {
  return serverMachine.provide({ actions: reducerActions(serverReducers as never, additions) as never });
}

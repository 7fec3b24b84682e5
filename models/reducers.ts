// Machines here keep their logic in named reducers: `(context, event, additions) → { context, effects }`.
// XState runs a reducer as one `enqueueActions` action, so the statechart (states, transitions,
// guards) stays the readable model while every effect comes back as data: `effect` actions whose
// params the world performs (send a request, set a timer, record a note), and `raise` events the
// machine handles in the same step. Nothing here performs I/O.
//
// A reducer may look a policy up by name deep inside a step (a reconnect strategy, a guard, a
// re-initialize policy a module added), and a machine's context is plain data (snapshotted, hashed,
// forked), where a value of functions cannot go. So the run's additions are the reducers' third
// argument, bound once, when an engine's stepper is made: the XState machine gets them through
// `provide` (`reducerActions`), the compiled engine passes them itself. A machine defined before that
// carries `unbound` implementations, which fail loudly if anything steps it.
import { enqueueActions, type EventObject } from 'xstate';
import type { PolicyAdditions } from './additions.ts';
import type { Raise, Reduction } from './reduction.ts';

export type { Raise, Reduction } from './reduction.ts';

export type Reducer<C, E extends EventObject, F> = (context: C, event: E, additions: PolicyAdditions) => Reduction<C, F>;

/** The XState actions of a reducer table, bound to `additions`: each reducer becomes one `enqueueActions`. */
export function reducerActions<C, E extends EventObject, F extends { type: string }>(
  reducers: Record<string, Reducer<C, E, F>>,
  additions: PolicyAdditions,
): Record<string, ReturnType<typeof enqueueActions>> {
  const actions: Record<string, ReturnType<typeof enqueueActions>> = {};
  for (const [name, reduce] of Object.entries(reducers)) {
    actions[name] = enqueueActions(({ context, event, enqueue }: any) => {
      const { context: next, effects } = reduce(context as C, event as E, additions);
      if (next !== context) enqueue.assign(() => next);
      for (const effect of effects) {
        if (effect.type === 'raise') enqueue.raise((effect as unknown as Raise<E>).event);
        else enqueue({ type: 'effect', params: effect });
      }
    });
  }
  return actions;
}

/** Implementations named like `table`'s, each failing if called: what a machine is defined with until
 *  a run's additions are bound to it (models/client.ts `clientMachineFor`, server.ts `serverMachineFor`). */
export function unbound<T extends Record<string, unknown>>(machine: string, table: T): T {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(table)) {
    out[name] = () => {
      throw new Error(`internal: the ${machine} machine was stepped before a run's additions were bound to it (${name})`);
    };
  }
  return out as T;
}

/** The `effect` action: a no-op for XState; the world performs the params it is returned with. */
export const effectAction = (_args: unknown, _params: unknown): void => {};

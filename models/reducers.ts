// Machines here keep their logic in named reducers: `(context, event) → { context, effects }`.
// XState runs a reducer as one `enqueueActions` action, so the statechart (states, transitions,
// guards) stays the readable model while every effect comes back as data: `effect` actions whose
// params the world performs (send a request, set a timer, record a note), and `raise` events the
// machine handles in the same step. Nothing here performs I/O.
import { enqueueActions, type EventObject } from 'xstate';

export interface Reduction<C, F> {
  context: C;
  effects: F[];
}

export type Reducer<C, E extends EventObject, F> = (context: C, event: E) => Reduction<C, F>;

export interface Raise<E extends EventObject> {
  type: 'raise';
  event: E;
}

/** Build the XState actions of a reducer table: each reducer becomes one `enqueueActions`. */
export function reducerActions<C, E extends EventObject, F extends { type: string }>(
  reducers: Record<string, Reducer<C, E, F>>,
): Record<string, ReturnType<typeof enqueueActions>> {
  const actions: Record<string, ReturnType<typeof enqueueActions>> = {};
  for (const [name, reduce] of Object.entries(reducers)) {
    actions[name] = enqueueActions(({ context, event, enqueue }: any) => {
      const { context: next, effects } = reduce(context as C, event as E);
      if (next !== context) enqueue.assign(() => next);
      for (const effect of effects) {
        if (effect.type === 'raise') enqueue.raise((effect as unknown as Raise<E>).event);
        else enqueue({ type: 'effect', params: effect });
      }
    });
  }
  return actions;
}

/** The `effect` action: a no-op for XState; the world performs the params it is returned with. */
export const effectAction = (_args: unknown, _params: unknown): void => {};

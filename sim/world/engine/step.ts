// Stepping a machine: XState's pure `transition()` returns the next snapshot and the actions it did
// not execute; the `effect` actions among them are the machine's effects, as data, for the world
// to perform. Nothing is executed here. Each step also names the transitions it took
// (world/engine/transitions.ts), for coverage.
import { enqueueActions, initialTransition, transition, type AnyStateMachine, type EventObject, type SnapshotFrom } from 'xstate';
import type { PolicyAdditions } from '../../../models/additions.ts';
import type { Reducer } from '../../../models/reducers.ts';
import { transitionId, type TransitionDef } from './transitions.ts';

export interface Stepped<F> {
  snapshot: SnapshotFrom<AnyStateMachine>;
  effects: F[];
  /** The transitions this step took, in order (the event's, then those of events it raised). */
  taken?: string[];
  /** The same, as indices into the stepper's `transitionNames` (the compiled stepper gives these
   *  instead of `taken`: the world marks them in a bitmap rather than hashing a name per step). */
  takenIndex?: readonly number[];
}

export interface Stepper<E, F> {
  /** What `takenIndex` indexes, for a stepper that gives it. */
  transitionNames?: readonly string[];
  initial(input: unknown): Stepped<F>;
  step(snapshot: SnapshotFrom<AnyStateMachine>, event: E): Stepped<F>;
}

function effectsOf<F>(actions: readonly { type: string; params?: unknown }[]): F[] {
  const effects: F[] = [];
  for (const a of actions) if (a.type === 'effect') effects.push(a.params as F);
  return effects;
}

/**
 * The same machine with every reducer's `raise` turned into an inert effect, so that one
 * `transition()` takes exactly one transition. Used only to ask XState, event by event, which
 * transition it selects for the events a step raised (`transition()` handles those internally).
 */
function oneEventAtATime(
  machine: AnyStateMachine,
  reducers: Record<string, Reducer<any, any, any>>,
  additions: PolicyAdditions,
): AnyStateMachine {
  const actions: Record<string, ReturnType<typeof enqueueActions>> = {};
  for (const [name, reduce] of Object.entries(reducers)) {
    actions[name] = enqueueActions(({ context, event, enqueue }: any) => {
      const { context: next } = reduce(context, event, additions);
      if (next !== context) enqueue.assign(() => next);
    });
  }
  return machine.provide({ actions } as never);
}

/** Steps `machine`, one with a run's additions provided (models/client.ts `clientMachineFor`); its
 *  `reducers`, bound to the same `additions`, name the transitions a step's raised events took. */
export function xstateStepper<E, F>(
  machine: AnyStateMachine,
  reducers: Record<string, Reducer<any, any, any>>,
  additions: PolicyAdditions,
): Stepper<E, F> {
  const single = oneEventAtATime(machine, reducers, additions);
  const selected = (m: AnyStateMachine, s: SnapshotFrom<AnyStateMachine>, e: EventObject) => {
    const t = m.getTransitionData(s as never, e)[0];
    return t ? transitionId(t as unknown as TransitionDef) : undefined;
  };
  return {
    initial(input) {
      const [snapshot, actions] = initialTransition(machine, input);
      return { snapshot, effects: effectsOf<F>(actions), taken: [] };
    },
    step(snapshot, event) {
      const [next, actions] = transition(machine, snapshot, event as never);
      const taken: string[] = [];
      const first = selected(machine, snapshot, event as EventObject);
      if (first) taken.push(first);
      const raised = actions.filter((a) => a.type === 'xstate.raise').map((a) => (a.params as { event: EventObject }).event);
      if (raised.length > 0) {
        // Re-home the snapshot: XState resolves actions through the snapshot's own machine.
        let s = transition(single, single.resolveState({ value: snapshot.value, context: snapshot.context } as never), event as never)[0];
        for (const r of raised) {
          const id = selected(single, s, r);
          if (id) taken.push(id);
          s = transition(single, s, r as never)[0];
        }
      }
      return { snapshot: next, effects: effectsOf<F>(actions), taken };
    },
  };
}

/** `{connecting: 'initializing'}` → `connecting.initializing`. */
export function stateName(value: unknown): string {
  if (typeof value === 'string') return value;
  const [key, inner] = Object.entries(value as Record<string, unknown>)[0]!;
  return `${key}.${stateName(inner)}`;
}

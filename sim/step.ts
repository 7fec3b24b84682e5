// Stepping a machine: XState's pure `transition()` returns the next snapshot and the actions it did
// not execute; the `effect` actions among them are the machine's effects, as data, for the world
// to perform. Nothing is executed here.
import { initialTransition, transition, type AnyStateMachine, type SnapshotFrom } from 'xstate';

export interface Stepped<F> {
  snapshot: SnapshotFrom<AnyStateMachine>;
  effects: F[];
}

export interface Stepper<E, F> {
  initial(input: unknown): Stepped<F>;
  step(snapshot: SnapshotFrom<AnyStateMachine>, event: E): Stepped<F>;
}

function effectsOf<F>(actions: readonly { type: string; params?: unknown }[]): F[] {
  const effects: F[] = [];
  for (const a of actions) if (a.type === 'effect') effects.push(a.params as F);
  return effects;
}

export function xstateStepper<E, F>(machine: AnyStateMachine): Stepper<E, F> {
  return {
    initial(input) {
      const [snapshot, actions] = initialTransition(machine, input);
      return { snapshot, effects: effectsOf<F>(actions) };
    },
    step(snapshot, event) {
      const [next, actions] = transition(machine, snapshot, event as never);
      return { snapshot: next, effects: effectsOf<F>(actions) };
    },
  };
}

/** `{connecting: 'initializing'}` → `connecting.initializing`. */
export function stateName(value: unknown): string {
  if (typeof value === 'string') return value;
  const [key, inner] = Object.entries(value as Record<string, unknown>)[0]!;
  return `${key}.${stateName(inner)}`;
}

// What one step of a machine's reducer returns: its next context and its effects, as data (a `raise`
// among them is an event the machine handles in the same step). The types the machines' contexts
// share, apart from the reducers (reducers.ts), which also know the run's additions.
import type { EventObject } from 'xstate';

export interface Reduction<C, F> {
  context: C;
  effects: F[];
}

export interface Raise<E extends EventObject> {
  type: 'raise';
  event: E;
}

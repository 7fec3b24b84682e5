// Stable, readable names for a statechart's states and transitions, and the catalogue of all of
// them that `xstate/graph` finds in a machine's definition. A transition is an edge of the graph:
// the state that declares it, its event, its guard and its target, e.g.
// `ready: ATTEMPT_FAILED [needsNewSession] → connecting`. Both engines name the transitions they
// take this way (world/engine/step.ts, world/engine/compiled-step.ts), so coverage compares like with like.
import type { AnyStateMachine } from 'xstate';
import { getStateNodes, toDirectedGraph, type DirectedGraphNode } from 'xstate/graph';

/** The parts of an XState transition definition a name is made of. */
export interface TransitionDef {
  source: { path: readonly string[] };
  eventType: string;
  guard?: unknown;
  target?: readonly { path: readonly string[] }[] | undefined;
}

function guardName(guard: unknown): string | undefined {
  if (guard === undefined) return undefined;
  if (typeof guard === 'string') return guard;
  const type = (guard as { type?: unknown }).type;
  return typeof type === 'string' ? type : 'inline guard';
}

export function transitionId(t: TransitionDef): string {
  const guard = guardName(t.guard);
  const target = t.target && t.target.length > 0 ? t.target.map((n) => n.path.join('.')).join(',') : '(stays)';
  return `${t.source.path.join('.') || '(root)'}: ${t.eventType}${guard ? ` [${guard}]` : ''} → ${target}`;
}

/** Everything a machine's definition can do: its states (compound and atomic) and transitions. */
export interface MachineCatalog {
  machine: string;
  states: string[];
  transitions: string[];
}

const catalogs = new WeakMap<AnyStateMachine, MachineCatalog>();

export function catalogOf(machine: AnyStateMachine): MachineCatalog {
  let c = catalogs.get(machine);
  if (c) return c;
  const states = getStateNodes(machine)
    .map((n) => n.path.join('.'))
    .filter((p) => p !== '');
  const transitions: string[] = [];
  const walk = (node: DirectedGraphNode) => {
    for (const edge of node.edges) {
      const id = transitionId(edge.transition as unknown as TransitionDef);
      // A node's edges list one entry per target; our transitions have at most one.
      if (!transitions.includes(id)) transitions.push(id);
    }
    for (const child of node.children) walk(child);
  };
  walk(toDirectedGraph(machine));
  c = { machine: machine.id, states, transitions };
  catalogs.set(machine, c);
  return c;
}

/** `{connecting: 'initializing'}` → `connecting.initializing`, and every ancestor of a state name. */
export function withAncestors(state: string): string[] {
  const parts = state.split('.');
  return parts.map((_, i) => parts.slice(0, i + 1).join('.'));
}

// A second way to step the same machines: compile the statechart XState built (its states,
// transitions, guards and targets) into a table once, and call the reducers directly. XState's
// `transition()` builds an actor scope and resolves actions generically on every event; this does
// the same selection without that (docs/performance.md has what it saves).
// `test/sim/world/compiled-step.test.ts` runs both engines on random worlds and requires
// byte-identical histories.
//
// It supports what the models use and refuses the rest at compile time: atomic and compound states,
// guarded transitions with named guards, named reducer actions, and `raise` as an effect. The guards
// are the machine's own (a machine with a run's additions provided: models/client.ts
// `clientMachineFor`), and every reducer is called with the same additions.
import type { AnyStateMachine, EventObject } from 'xstate';
import type { PolicyAdditions } from '../../../models/additions.ts';
import type { Reducer } from '../../../models/reducers.ts';
import type { Stepped, Stepper } from './step.ts';
import { transitionId, type TransitionDef } from './transitions.ts';

interface Candidate {
  guard: ((args: { context: unknown; event: EventObject }) => boolean) | null;
  target: string | null;
  actions: Reducer<unknown, EventObject, { type: string }>[];
  /** The transition's name (world/engine/transitions.ts), reported as taken by its index in `names`. */
  id: string;
  index: number;
  /** The target state's transitions by event (set once every state is compiled). */
  targetOn: ByEvent | null;
  /** `[index]`: what a step that takes only this transition reports (most steps take one). */
  alone: readonly number[];
}

/** One state's transitions on one event, in the order they are asked, and `select`: the first
 *  whose guard passes (or that has none), or null. */
interface Choice {
  candidates: readonly Candidate[];
  select: (args: GuardArgs) => Candidate | null;
}

type ByEvent = Map<string, Choice>;
type GuardArgs = { context: unknown; event: EventObject };

interface CompiledSnapshot {
  value: string;
  context: unknown;
  /** The state's transitions by event, carried so that a step looks nothing up by state name
   *  (absent on a snapshot made elsewhere: then looked up). */
  on?: ByEvent;
}

type Node = {
  id: string;
  key: string;
  type: string;
  path: string[];
  parent?: Node;
  states: Record<string, Node>;
  initial?: { target: Node[] };
  transitions: Map<string, { guard?: unknown; target?: Node[]; actions: unknown[]; reenter?: boolean }[]>;
  entry: unknown[];
  exit: unknown[];
  always?: unknown[];
  after?: unknown[];
};

/** What a step without effects, or without a transition, returns: one shared, frozen empty list. */
const NO_EFFECTS: readonly never[] = Object.freeze([]);
const NONE_TAKEN: readonly number[] = Object.freeze([]);

function hasRaise(effects: readonly { type: string }[]): boolean {
  for (let i = 0; i < effects.length; i++) if (effects[i]!.type === 'raise') return true;
  return false;
}

function unsupported(machine: string, what: string): never {
  throw new Error(`compiled stepper: machine '${machine}' uses ${what}, which only the XState engine runs`);
}

function leafOf(node: Node): Node {
  while (node.type === 'compound') node = node.initial!.target[0]!;
  return node;
}

const name = (n: Node) => n.path.join('.');
const GENERATED = `${import.meta.url}?generated`;

/**
 * The first candidate whose guard passes, as a function of its own: generated source that calls
 * each guard by name, in order (`if (g0(a)) return c0; …`). Asked in one loop, every guard of
 * every state went through one call site, which V8 cannot inline (a fifth of a server step asked
 * a dozen guards that way); here each call site calls one guard. Only the candidates and their
 * guards are bound in: no text from the machine is evaluated but its state and event names,
 * reduced to identifier characters, as the function's name (for profiles).
 */
function selector(label: string, candidates: readonly Candidate[]): Choice['select'] {
  const params: string[] = [];
  const values: unknown[] = [];
  const lines: string[] = [];
  candidates.forEach((c, i) => {
    params.push(`c${i}`);
    values.push(c);
    if (c.guard === null) lines.push(`return c${i};`);
    else {
      params.push(`g${i}`);
      values.push(c.guard);
      lines.push(`if (g${i}(a)) return c${i};`);
    }
  });
  const fn = `select_${label.replace(/[^A-Za-z0-9_]/g, '_')}`;
  // Named after this file (`?generated`), so that a profile counts the selectors' time as this file's.
  const source = `'use strict';\nreturn function ${fn}(a) {\n${lines.join('\n')}\nreturn null;\n};\n//# sourceURL=${GENERATED}`;
  const make = new Function(...params, source);
  return make(...values) as Choice['select'];
}

/** Compile `machine` (its additions provided) into a stepper whose reducers get `additions`. One
 *  function of 130 lines: the compile and the step share the table by closure, and the step is the
 *  world's hot path, which split into calls that pass the table around would slow. */
export function compiledStepper<E extends EventObject, F>(
  machine: AnyStateMachine,
  reducers: Record<string, Reducer<any, any, any>>,
  additions: PolicyAdditions,
): Stepper<E, F> {
  const id = machine.id;
  const root = machine.root as unknown as Node;
  const guards = (machine.implementations.guards ?? {}) as Record<string, Candidate['guard']>;
  const table = new Map<string, ByEvent>();
  const names: string[] = [];
  const indexOf = new Map<string, number>();

  const compileTransition = (t: { guard?: unknown; target?: Node[]; actions: unknown[] }): Candidate => {
    let guard: Candidate['guard'] = null;
    if (t.guard !== undefined) {
      const g = typeof t.guard === 'string' ? t.guard : (t.guard as { type?: string }).type;
      if (typeof g !== 'string' || !guards[g] || (typeof t.guard === 'object' && 'params' in (t.guard as object)))
        unsupported(id, 'a guard that is not a plain named guard');
      guard = guards[g]!;
    }
    const actions = t.actions.map((a) => {
      const n = typeof a === 'string' ? a : (a as { type?: string }).type;
      if (typeof n !== 'string' || !reducers[n]) unsupported(id, `an action that is not a named reducer (${String(n)})`);
      return reducers[n]!;
    });
    if (t.target && t.target.length !== 1) unsupported(id, 'a transition with several targets');
    const tid = transitionId(t as unknown as TransitionDef);
    let index = indexOf.get(tid);
    if (index === undefined) {
      indexOf.set(tid, (index = names.length));
      names.push(tid);
    }
    return { guard, target: t.target ? name(leafOf(t.target[0]!)) : null, actions, id: tid, index, targetOn: null, alone: [index] };
  };

  const visit = (node: Node) => {
    if (node.type !== 'atomic' && node.type !== 'compound') unsupported(id, `a ${node.type} state (${node.id})`);
    if (node.entry.length || node.exit.length) unsupported(id, `entry or exit actions (${node.id})`);
    if (node.always?.length || node.after?.length) unsupported(id, `eventless or delayed transitions (${node.id})`);
    if (node.type === 'atomic') {
      const byEvent = new Map<string, Candidate[]>();
      for (let n: Node | undefined = node; n; n = n.parent) {
        for (const [event, defs] of n.transitions) {
          if (event.includes('*')) unsupported(id, 'wildcard events');
          // Deeper states are asked first; an ancestor's transitions follow its descendants'.
          byEvent.set(event, [...(byEvent.get(event) ?? []), ...defs.map(compileTransition)]);
        }
      }
      const choices: ByEvent = new Map();
      for (const [event, candidates] of byEvent)
        choices.set(event, { candidates, select: selector(`${id}_${name(node)}_${event}`, candidates) });
      table.set(name(node), choices);
    }
    for (const child of Object.values(node.states)) visit(child);
  };
  visit(root);
  for (const byEvent of table.values())
    for (const choice of byEvent.values()) for (const c of choice.candidates) if (c.target) c.targetOn = table.get(c.target)!;
  const initialLeaf = name(leafOf(root));
  const initialOn = table.get(initialLeaf)!;
  const contextFactory = (machine.config as { context?: unknown }).context;
  // The guards' argument, one object reused for every guard this stepper asks: a guard is a
  // predicate of it and keeps nothing (a new object per candidate was a twentieth of a step).
  const guardArgs: GuardArgs = { context: undefined, event: { type: '' } };

  return {
    transitionNames: names,
    initial(input) {
      const context = typeof contextFactory === 'function' ? contextFactory({ input }) : contextFactory;
      return { snapshot: { value: initialLeaf, context, on: initialOn } as never, effects: [], takenIndex: NONE_TAKEN };
    },
    step(snapshot, event): Stepped<F> {
      const current = snapshot as unknown as CompiledSnapshot;
      let value = current.value;
      let on = current.on ?? table.get(value)!;
      let context = current.context;
      // Made only when needed: most steps raise nothing and take one transition, whose reducer's own
      // effects list is the step's (`only`, not copied); a step without effects shares one empty list.
      let effects: F[] | null = null;
      let only: readonly F[] | null = null;
      let first: Candidate | null = null;
      let taken: number[] | null = null;
      // Raised events are appended and read by index (no shift).
      let raised: EventObject[] | null = null;
      let ev: EventObject = event as unknown as EventObject;
      for (let q = 0; ; ev = raised[q++]!) {
        const choice = on.get(ev.type);
        if (choice) {
          guardArgs.context = context;
          guardArgs.event = ev;
          const c = choice.select(guardArgs);
          if (c !== null) {
            if (first === null) first = c;
            else (taken ??= [first.index]).push(c.index);
            const actions = c.actions;
            for (let a = 0; a < actions.length; a++) {
              const r = actions[a]!(context, ev, additions);
              context = r.context;
              const out = r.effects;
              if (out.length === 0) continue;
              if (effects === null && only === null && !hasRaise(out)) {
                only = out as unknown as readonly F[];
                continue;
              }
              if (effects === null) effects = only ? only.slice() : [];
              only = null;
              for (let i = 0; i < out.length; i++) {
                const effect = out[i]!;
                if (effect.type === 'raise') (raised ??= []).push((effect as unknown as { event: EventObject }).event);
                else effects.push(effect as F);
              }
            }
            if (c.target) {
              value = c.target;
              on = c.targetOn!;
            }
          }
        }
        if (raised === null || q >= raised.length) break;
      }
      return {
        // A step that changed nothing (no transition, or one that kept its state and context) keeps
        // its snapshot: snapshots are immutable, so an equal one need not be a new object.
        snapshot: (value === current.value && context === current.context && on === current.on ? current : { value, context, on }) as never,
        effects: (effects ?? only ?? NO_EFFECTS) as F[],
        takenIndex: taken ?? first?.alone ?? NONE_TAKEN,
      };
    },
  };
}

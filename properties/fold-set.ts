// Several property folds stepped together over the entries a world writes: the world's entry sink
// during exhaustive exploration (search/exhaustive/explore.ts) and a history-free random run
// (judge.ts). States are never changed in place, so a fork's copy is a copy of the array of states,
// and a world's digest adds their keys. Each entry steps only the folds that read its kind (a
// fold's `reads`): most entries (requests, responses, state changes) concern none of them.
import type { HistoryEntry } from '../sim/core/history.ts';
import { asFold, type AnyFold, type HistoryFrame, type Property, type PropertyVerdict } from './fold.ts';
import type { Reference } from './outcomes.ts';

type Kind = HistoryEntry['kind'];
/** Every kind, as a record so that the compiler says when a kind is added to the history. */
const ALL: Record<Kind, true> = {
  invoke: true,
  end: true,
  request: true,
  fault: true,
  response: true,
  deliver: true,
  state: true,
  client: true,
  server: true,
  'budget-exhausted': true,
};
const KINDS = Object.keys(ALL) as Kind[];

/** For each entry kind, the indices of the folds that read it (in the folds' order); and the kinds
 *  any of them reads (the world builds no others for a fold set, world/options.ts `EntrySink`). */
interface Routes {
  byKind: ReadonlyMap<string, readonly number[]>;
  reads: ReadonlySet<Kind>;
  /** Steps the folds that read `e`'s kind (every fold for a kind not in the list above). */
  step: (states: unknown[], e: HistoryEntry) => void;
}

const routesOf = new WeakMap<readonly AnyFold[], Routes>();

function routes(folds: readonly AnyFold[]): Routes {
  let r = routesOf.get(folds);
  if (!r) {
    const m = new Map<string, number[]>();
    for (const kind of KINDS) m.set(kind, []);
    folds.forEach((f, i) => {
      for (const kind of f.reads ?? KINDS) m.get(kind)!.push(i);
    });
    // A cut-short run is marked whatever the folds read.
    const reads = new Set<Kind>(['budget-exhausted']);
    for (const kind of KINDS) if (m.get(kind)!.length > 0) reads.add(kind);
    routesOf.set(folds, (r = { byKind: m, reads, step: stepper(folds, m) }));
  }
  return r;
}

/**
 * The step of a list of folds as a function of its own, generated: a switch on the entry's kind
 * whose cases call each fold that reads it by name (`states[2] = f2.step(states[2], e)`). Stepped
 * in one loop, every fold's step went through one call site that V8 cannot inline; here each call
 * site calls one fold. Only the folds are bound in; the source names kinds from the list above
 * (JSON strings) and indices.
 */
function stepper(folds: readonly AnyFold[], byKind: ReadonlyMap<string, readonly number[]>): Routes['step'] {
  const call = (i: number) => `states[${i}] = f${i}.step(states[${i}], e);`;
  const cases = KINDS.map((kind) => `case ${JSON.stringify(kind)}:\n${byKind.get(kind)!.map(call).join('\n')}\nreturn;`);
  const every = folds.map((_, i) => call(i)).join('\n');
  const params = folds.map((_, i) => `f${i}`);
  // Named after this file (`?generated`), so that a profile counts the step's time as this file's.
  const fn = `function stepFolds(states, e) {\nswitch (e.kind) {\n${cases.join('\n')}\ndefault:\n${every}\n}\n}`;
  const body = `'use strict';\nreturn ${fn};\n//# sourceURL=${import.meta.url}?generated`;
  return new Function(...params, body)(...folds) as Routes['step'];
}

/** The kinds a set of folds and other readers read, as one set (the same set for the same two lists). */
const unions = new WeakMap<ReadonlySet<Kind>, WeakMap<readonly Kind[], ReadonlySet<Kind>>>();
export function readsWith(reads: ReadonlySet<Kind>, more: readonly Kind[]): ReadonlySet<Kind> {
  let byMore = unions.get(reads);
  if (!byMore) unions.set(reads, (byMore = new WeakMap()));
  let u = byMore.get(more);
  if (!u) byMore.set(more, (u = new Set([...reads, ...more])));
  return u;
}

/** The folds of a list of properties, the same array for the same list (so that its routes are made once). */
const foldsOf = new WeakMap<readonly Property[], readonly AnyFold[]>();

export class FoldSet {
  /** A `budget-exhausted` entry was seen: this run was cut short by the world's step budget. */
  budgetExhausted = false;

  private constructor(
    readonly folds: readonly AnyFold[],
    private readonly states: unknown[],
    private readonly routes: Routes,
  ) {}

  static start(properties: readonly Property[], reference: Reference, frame: HistoryFrame): FoldSet {
    let folds = foldsOf.get(properties);
    if (!folds) foldsOf.set(properties, (folds = properties.map(asFold)));
    return new FoldSet(
      folds,
      folds.map((f) => f.init(reference, frame)),
      routes(folds),
    );
  }

  /** The entry kinds some fold reads: the world need build no others. */
  get reads(): ReadonlySet<Kind> {
    return this.routes.reads;
  }

  push(e: HistoryEntry): void {
    if (e.kind === 'budget-exhausted') this.budgetExhausted = true;
    this.routes.step(this.states, e);
  }

  /** Everything the verdicts' future depends on, times relative to `now`; each fold's key length-prefixed,
   *  so that no two different lists of keys read the same. */
  key(now: number): string {
    let out = '';
    for (let i = 0; i < this.folds.length; i++) {
      const k = this.folds[i]!.key(this.states[i], now);
      out += `${k.length}:${k}`;
    }
    return out;
  }

  verdicts(): PropertyVerdict[] {
    return this.folds.map((f, i) => f.verdict(this.states[i]));
  }

  clone(): FoldSet {
    const s = new FoldSet(this.folds, [...this.states], this.routes);
    s.budgetExhausted = this.budgetExhausted;
    return s;
  }
}

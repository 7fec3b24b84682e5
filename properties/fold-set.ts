// Several property folds stepped together over the entries a world writes: the world's entry sink
// during exhaustive exploration (search/exhaustive/explore.ts). States are never changed in place,
// so a fork's copy is a copy of the array of states, and a world's digest adds their keys.
import type { HistoryEntry } from '../core/history.ts';
import { asFold, type AnyFold, type HistoryFrame, type Property, type PropertyVerdict } from './fold.ts';
import type { Reference } from './outcomes.ts';

export class FoldSet {
  /** A `budget-exhausted` entry was seen: this run was cut short by the world's step budget. */
  budgetExhausted = false;

  private constructor(
    readonly folds: readonly AnyFold[],
    private readonly states: unknown[],
  ) {}

  static start(properties: readonly Property[], reference: Reference, frame: HistoryFrame): FoldSet {
    const folds = properties.map(asFold);
    return new FoldSet(
      folds,
      folds.map((f) => f.init(reference, frame)),
    );
  }

  push(e: HistoryEntry): void {
    if (e.kind === 'budget-exhausted') this.budgetExhausted = true;
    for (let i = 0; i < this.folds.length; i++) this.states[i] = this.folds[i]!.step(this.states[i], e);
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
    const s = new FoldSet(this.folds, [...this.states]);
    s.budgetExhausted = this.budgetExhausted;
    return s;
  }
}

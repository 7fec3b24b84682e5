// A fold set's step is generated per list of folds (properties/fold-set.ts `stepper`): a switch on
// the entry's kind calling each fold that reads it. Held here with folds that log what they are
// stepped on: each fold sees exactly the entries of the kinds it reads, in the history's order and
// in the folds' order, a fold that declares nothing sees every entry, an unknown kind reaches every
// fold, and a fold is called as a method of itself. Also the one-entry memo of `outcomeOf`: the
// same entry judged against another reference is judged anew.
import { describe, expect, it } from 'vitest';
import { HISTORY_VERSION, type EndEntry, type HistoryEntry } from '../../sim/core/history.ts';
import { FoldSet } from '../../properties/fold-set.ts';
import type { HistoryFrame, PropertyFold } from '../../properties/fold.ts';
import { outcomeOf } from '../../properties/outcomes.ts';
import { VULNERABLE_000 } from '../../sim/core/cells.ts';

const FRAME: HistoryFrame = { version: HISTORY_VERSION, combination: VULNERABLE_000, workload: [], plan: [], schedule: [] };

function logging(name: string, log: string[], reads?: HistoryEntry['kind'][]): PropertyFold<number> {
  return {
    name,
    holdsWhen: 'never fails',
    ...(reads ? { reads } : {}),
    init: () => 0,
    step(n, e) {
      // `this` is the fold: the set calls it as a method.
      log.push(`${(this as { name: string }).name}:${e.kind}`);
      return n + 1;
    },
    verdict: (n) => ({ holds: true, reached: n > 0 }),
    key: (n) => String(n),
  };
}

describe('a fold set', () => {
  it('steps each fold on the kinds it reads, in entry order then fold order; a fold without `reads` and an unknown kind reach all', () => {
    const log: string[] = [];
    const folds = [logging('a', log, ['end', 'fault']), logging('b', log), logging('c', log, ['fault'])];
    const set = FoldSet.start(folds, new Map(), FRAME);
    const entries = [
      { t: 0, kind: 'invoke', callId: 0, method: 'tools/call', progress: false },
      { t: 1, kind: 'fault', fault: 'http-502', at: 0, applied: true, detail: '' },
      { t: 2, kind: 'end', callId: 0, attempts: 1, req: 0, end: 'error', reason: 'x' },
      { t: 3, kind: 'a kind from later' },
    ] as unknown as HistoryEntry[];
    for (const e of entries) set.push(e);
    expect(log).toEqual([
      'b:invoke',
      'a:fault',
      'b:fault',
      'c:fault',
      'a:end',
      'b:end',
      'a:a kind from later',
      'b:a kind from later',
      'c:a kind from later',
    ]);
    expect(set.verdicts().map((v) => v.reached)).toEqual([true, true, true]);
    expect(set.key(0)).toBe('1:31:41:2');
  });
});

describe('outcomeOf', () => {
  it('judges the same entry against each reference it is given (its memo is of the entry and the reference)', () => {
    const end = { t: 5, kind: 'end', callId: 0, attempts: 1, req: 2, end: 'result', content: [{ type: 'text', text: 'r' }] } as EndEntry;
    const same = new Map([[0, JSON.stringify(end.end === 'result' ? end.content : null)]]);
    const other = new Map([[0, JSON.stringify([{ type: 'text', text: 'another' }])]]);
    expect(outcomeOf(end, same)).toBe('ok');
    expect(outcomeOf(end, other)).toBe('silent-empty');
    expect(outcomeOf(end, same)).toBe('ok');
    const copy = { ...end, content: [] } as EndEntry;
    expect(outcomeOf(copy, same)).toBe('silent-empty');
  });
});

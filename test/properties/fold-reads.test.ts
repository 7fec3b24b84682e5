// A fold set (properties/fold-set.ts) steps a fold only on the entry kinds it `reads`. Held here:
// every built-in fold that declares its kinds returns the very state it was given for every other
// entry of a sample of runs of every seed cell (and its state does change on the kinds it reads);
// OutcomesFold and StatsFold give the same from only the kinds they declare. Also: a result's
// content is judged `ok` exactly when its JSON is the reference's, whatever its shape (outcomes.ts
// compares the usual shape without JSON).
import { describe, expect, it } from 'vitest';
import { SEED_CELLS } from '../../sim/core/cells.ts';
import { call } from '../../sim/core/workload.ts';
import type { EndEntry } from '../../sim/core/history.ts';
import { callOutcomes, OUTCOMES_READ, OutcomesFold, outcomeOf, referenceOf } from '../../properties/outcomes.ts';
import { STATS_READ, StatsFold, statsOf, statsOfCounts } from '../../properties/stats.ts';
import { PROPERTIES } from '../../properties/properties.ts';
import { inputs } from '../../sim/search/random/arbitraries.ts';
import { sampleLazily } from '../../sim/search/random/input-stream.ts';
import { runWorld } from '../../sim/world/world.ts';
import { DEFAULT_WORLD } from '../../sim/world/world.ts';

describe('fold reads', () => {
  it('every built-in fold leaves its state as it was on the entries of kinds it does not read', () => {
    const changedBy = new Map<string, Set<string>>(PROPERTIES.map((p) => [p.name, new Set()]));
    let skipped = 0;
    for (const cell of SEED_CELLS) {
      const samples = [...sampleLazily(inputs({}), 11, 8)];
      // The arbitrary draws no idempotent calls; one run with them (a side-effecting call beside it).
      samples.push([[{ fault: 'http-502', at: 2 }], [call(false, false, true), call()], []]);
      for (const [plan, workload, schedule] of samples) {
        const history = runWorld({ combination: cell.combination, plan, workload, schedule }, DEFAULT_WORLD);
        const reference = referenceOf(runWorld({ combination: cell.combination, plan: [], workload }, DEFAULT_WORLD));
        const { entries, ...frame } = history;
        for (const fold of PROPERTIES) {
          expect(fold.reads, fold.name).toBeDefined();
          let state = fold.init(reference, frame);
          for (const e of entries) {
            const next = fold.step(state, e);
            if (!fold.reads!.includes(e.kind)) {
              expect(next, `${fold.name} on a ${e.kind} entry`).toBe(state);
              skipped++;
            } else if (next !== state) changedBy.get(fold.name)!.add(e.kind);
            state = next;
          }
        }
      }
    }
    expect(skipped).toBeGreaterThan(1000);
    // Reached: every fold's state changed, and only ever on kinds it declares.
    for (const fold of PROPERTIES) {
      const changed = [...changedBy.get(fold.name)!];
      expect(changed.length, fold.name).toBeGreaterThan(0);
      expect(
        changed.filter((k) => !(fold.reads as readonly string[]).includes(k)),
        fold.name,
      ).toEqual([]);
    }
  });

  it('gives the same outcomes and stats from only the kinds OutcomesFold and StatsFold read', () => {
    let runs = 0;
    for (const cell of SEED_CELLS) {
      for (const [plan, workload, schedule] of sampleLazily(inputs({}), 13, 4)) {
        const history = runWorld({ combination: cell.combination, plan, workload, schedule }, DEFAULT_WORLD);
        const reference = referenceOf(runWorld({ combination: cell.combination, plan: [], workload }, DEFAULT_WORLD));
        const outcomes = new OutcomesFold(reference);
        const stats = new StatsFold();
        for (const e of history.entries) {
          if (OUTCOMES_READ.includes(e.kind)) outcomes.push(e);
          if (STATS_READ.includes(e.kind)) stats.push(e);
        }
        expect(outcomes.outcomes()).toEqual(callOutcomes(history, reference));
        expect(statsOfCounts(stats.finish(history.coverage))).toEqual(statsOf(history));
        runs++;
      }
    }
    expect(runs).toBe(SEED_CELLS.length * 4);
  });

  it('judges a result ok exactly when its content’s JSON is the reference’s', () => {
    const ref = [{ type: 'text', text: 'echo result for call 0' }];
    const reference = new Map([[0, JSON.stringify(ref)]]);
    const end = (content: unknown): EndEntry =>
      ({ t: 1, kind: 'end', callId: 0, attempts: 1, req: 1, end: 'result', content }) as unknown as EndEntry;
    const contents: unknown[] = [
      [{ type: 'text', text: 'echo result for call 0' }],
      [{ text: 'echo result for call 0', type: 'text' }],
      [{ type: 'text', text: 'echo result for call 1' }],
      [{ type: 'text', text: 'echo result for call 0', extra: undefined }],
      [{ type: 'text', text: 'echo result for call 0', extra: 1 }],
      [
        { type: 'text', text: 'echo result for call 0' },
        { type: 'text', text: '' },
      ],
      [],
      [Object.assign(Object.create({ inherited: 1 }), { type: 'text', text: 'echo result for call 0' })],
      [{ type: 'text', text: 'echo result for call 0', toJSON: () => 'x' }],
    ];
    const outcomes = contents.map((c) => outcomeOf(end(c), reference));
    expect(outcomes).toEqual(contents.map((c) => (JSON.stringify(c) === reference.get(0) ? 'ok' : 'silent-empty')));
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(3);
    // No content, or no reference, is compared as JSON too (undefined equals undefined, as before).
    expect(outcomeOf(end(undefined), new Map([[0, undefined as unknown as string]]))).toBe('ok');
    expect(outcomeOf(end(undefined), reference)).toBe('silent-empty');
    expect(outcomeOf(end(ref), new Map())).toBe('silent-empty');
    expect(outcomeOf(end('text'), new Map([[0, '"text"']]))).toBe('ok');
    // A reference of another shape is compared as JSON too.
    const odd = new Map([[0, JSON.stringify([{ text: 'a', type: 'text' }])]]);
    expect(outcomeOf(end([{ text: 'a', type: 'text' }]), odd)).toBe('ok');
    expect(outcomeOf(end([{ type: 'text', text: 'a' }]), odd)).toBe('silent-empty');
  });
});

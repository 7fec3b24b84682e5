// A world's state is one record and a fork copies it with one function (world/state.ts). Every key
// of a mid-run state is held to that: what a fork may change is a copy, independent of the
// original, and what is shared is named here as immutable. A field added to the state without a
// way to copy it fails the first test; a fork that is not independent fails the second.
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../sim/core/history.ts';
import { EventQueue } from '../../../sim/world/clock.ts';
import { ForkableWorld } from '../../../sim/world/fork.ts';
import { cloneState, type WorldState } from '../../../sim/world/state.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';
import { FIXED_INPUT } from '../../fixtures/print-history.ts';

/** Machine snapshots and the pending effects are immutable data: forks share them. */
const SHARED: readonly (keyof WorldState)[] = ['client', 'server', 'pending'];

/** A world paused at request `at` of the fixed run (faults, a cut, overlapping calls: every set in use). */
function pausedAt(at: number, entries: HistoryEntry[] = []): ForkableWorld {
  const w = new ForkableWorld({ ...FIXED_INPUT, plan: [] }, DEFAULT_WORLD);
  let done = w.startPaused(entries);
  while (!done && w.nextRequest < at) done = w.resume(FIXED_INPUT.plan.filter((f) => f.at === w.nextRequest).map((f) => f.fault));
  expect(done, 'the fixed run reaches the request').toBe(false);
  return w;
}

describe('cloneState', () => {
  it('copies every key of a mid-run state: arrays, sets, maps and the queue independently, the rest equal', () => {
    const state = pausedAt(9).state as WorldState;
    const copy = cloneState(state);
    const keys = Object.keys(state) as (keyof WorldState)[];
    expect(Object.keys(copy)).toEqual(keys);
    let independent = 0;
    for (const key of keys) {
      const v = state[key] as unknown;
      const c = copy[key] as unknown;
      if (v instanceof Set || v instanceof Map) {
        expect(c, key).not.toBe(v);
        expect(c, key).toEqual(v);
        (c as Set<unknown>).clear();
        independent++;
      } else if (Array.isArray(v)) {
        expect(c, key).not.toBe(v);
        expect(c, key).toEqual(v);
        (c as unknown[]).length = 0;
        independent++;
      } else if (v instanceof EventQueue) {
        expect(c, key).not.toBe(v);
        expect((c as EventQueue<unknown>).entries(), key).toEqual(v.entries());
        (c as EventQueue<unknown>).push(1, { to: 'client', event: { type: 'CONNECT' } });
        expect((c as EventQueue<unknown>).size, key).toBe(v.size + 1);
        independent++;
      } else if (typeof v === 'object' && v !== null) {
        expect(SHARED, `${key} is an object cloneState does not copy: copy it, or name it immutable here`).toContain(key);
        expect(c, key).toBe(v);
      } else {
        expect(c, key).toBe(v);
      }
    }
    // the answer ledger, ended, responseFaults, the queue
    expect(independent).toBe(4);
    // the original still has what the copy's were cleared of
    expect(state.answers.length).toBeGreaterThan(0);
    expect(state.ended.size).toBeGreaterThan(0);
    expect(state.responseFaults.size).toBeGreaterThan(0);
  });
});

describe('fork', () => {
  const runOn = (w: ForkableWorld, faults: string[] = []) => {
    while (!w.resume(faults)) {}
  };

  it('is independent both ways: a fork run on changes nothing of the original, and the original run on nothing of a fork', () => {
    const original = pausedAt(4);
    const key = original.stateKey();
    const ahead: HistoryEntry[] = [];
    runOn(original.fork(ahead), ['http-502', 'stream-cut']);
    expect(ahead.filter((e) => e.kind === 'end').length, 'the fork ran to the end').toBe(FIXED_INPUT.workload.length);
    expect(original.stateKey()).toBe(key);
    expect(original.nextRequest).toBe(4);

    const later = original.fork([]);
    const laterKey = later.stateKey();
    runOn(original);
    expect(later.stateKey()).toBe(laterKey);

    // and what the fork goes on to write is what a world that was never forked writes
    const fromFork: HistoryEntry[] = [];
    const fromFresh: HistoryEntry[] = [];
    runOn(later.fork(fromFork));
    runOn(pausedAt(4).fork(fromFresh));
    expect(fromFork).toEqual(fromFresh);
    expect(fromFork.length).toBeGreaterThan(10);
  });
});

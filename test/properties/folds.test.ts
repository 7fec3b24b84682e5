// The properties as folds (properties/fold.ts): on random histories over every knob and fault,
// reducing a whole history and stepping it entry by entry (as exploration does) give the same
// verdicts; a step never changes the state it was given (forked worlds share states); and two
// states with equal keys reach the same verdict, holds and reached, on any continuation. Then the
// cases the folds decide by hand: the order silent calls end in, what "a call ended after a fault
// acted" means at one instant, caps-immutable and forgotten or replaced sessions, and that
// transport-expressible trusts the encoding the server recorded.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../sim/core/history.ts';
import { FoldSet } from '../../properties/fold-set.ts';
import { asFold, checkHistory, wholeHistory, type AnyFold, type HistoryFrame } from '../../properties/fold.ts';
import { judge } from '../../properties/judge.ts';
import { referenceOf, type Reference } from '../../properties/outcomes.ts';
import { PROPERTIES, propertyByName } from '../../properties/properties.ts';
import { faultPlan, inputs, workload as anyWorkload } from '../../sim/search/random/arbitraries.ts';
import { runWorld } from '../../sim/world/world.ts';
import { anyCombination } from '../fixtures/combinations.ts';
import { DEFAULT_WORLD } from '../../sim/world/world.ts';

const reduce = (f: AnyFold, entries: readonly HistoryEntry[], reference: Reference, frame: HistoryFrame) => {
  let s = f.init(reference, frame);
  for (const e of entries) s = f.step(s, e);
  return s;
};

describe('the property folds on random histories', () => {
  it('give the same verdicts reduced whole and stepped entry by entry, and never change a state they were given', () => {
    let violated = 0;
    fc.assert(
      fc.property(anyCombination, inputs({ workload: { overlap: true, lists: true } }), (c, [plan, workload, schedule]) => {
        const history = runWorld({ combination: c, plan, workload, schedule }, DEFAULT_WORLD);
        const reference = referenceOf(runWorld({ combination: c, plan: [], workload }, DEFAULT_WORLD));
        const { entries, ...frame } = history;
        const whole = judge(history, reference).verdicts;
        const set = FoldSet.start(PROPERTIES, reference, frame);
        for (const e of entries) set.push(e);
        expect(set.verdicts()).toEqual(PROPERTIES.map((p) => whole[p.name]));
        for (const f of PROPERTIES) {
          let s = f.init(reference, frame);
          for (const e of entries) {
            const before = JSON.stringify(s);
            const next = f.step(s, e);
            expect(JSON.stringify(s), `${f.name} changed its state on a ${e.kind} entry`).toBe(before);
            s = next;
          }
          if (!f.verdict(s).holds) violated++;
        }
      }),
      { numRuns: 300 },
    );
    expect(violated).toBeGreaterThan(3);
  });

  it('give states with equal keys the same verdict on any continuation', () => {
    let compared = 0;
    fc.assert(
      fc.property(
        anyCombination,
        anyWorkload({ maxCalls: 3, overlap: true, lists: true }),
        fc.array(faultPlan(), { minLength: 3, maxLength: 3 }),
        (c, workload, plans) => {
          const reference = referenceOf(runWorld({ combination: c, plan: [], workload }, DEFAULT_WORLD));
          const histories = plans.map((plan) => runWorld({ combination: c, plan, workload }, DEFAULT_WORLD));
          const frame = { ...histories[0]!, entries: undefined };
          for (const f of PROPERTIES) {
            // Every prefix of every history, by its key at the instant the next entry is written (a state
            // that an entry left unchanged is the same object: counted once per instant).
            const byKey = new Map<string, { state: unknown; now: number }[]>();
            const seen = new Set<string>();
            const stateIds = new Map<unknown, number>();
            for (const h of histories) {
              let s = f.init(reference, frame);
              for (let i = 0; i < h.entries.length; i++) {
                const now = h.entries[i]!.t;
                if (!stateIds.has(s)) stateIds.set(s, stateIds.size);
                const k = f.key(s, now);
                const group = byKey.get(k) ?? [];
                if (!seen.has(`${stateIds.get(s)}@${now}`)) group.push({ state: s, now });
                seen.add(`${stateIds.get(s)}@${now}`);
                byKey.set(k, group);
                s = f.step(s, h.entries[i]!);
              }
            }
            // Each continuation: the rest of some history from some entry on, moved to start at the prefix's now.
            const continuations = histories.map((h, j) => {
              const from = Math.floor(h.entries.length / (j + 2));
              return h.entries.slice(from).map((e) => ({ ...e, t: e.t - h.entries[from]!.t }));
            });
            // …and short ones that probe what a key must tell apart: a fault acting at once, calls invoked
            // and ending at the very instant, before or after it.
            const ids = workload.map((_, i) => i);
            const invokes = ids.map((callId): HistoryEntry => ({ t: 0, kind: 'invoke', callId, method: 'tools/call', progress: false }));
            const errors = ids.map(
              (callId): HistoryEntry => ({ t: 0, kind: 'end', callId, attempts: 1, req: 0, end: 'error', reason: 'x' }),
            );
            const probes = [
              [fault(0)],
              [...errors, fault(0)],
              [...invokes, fault(0), ...errors],
              [fault(0), ...invokes, ...errors],
              [...invokes, ...errors],
            ];
            for (const all of byKey.values()) {
              if (all.length < 2) continue;
              // Every member under the short probes; the first few under the long continuations too.
              for (const [group, rests] of [
                [all, probes],
                [all.slice(0, 4), continuations],
              ] as const) {
                for (const rest of rests) {
                  const finish = ({ state, now }: { state: unknown; now: number }) => {
                    let s = state;
                    for (const e of rest) s = f.step(s, { ...e, t: e.t + now } as HistoryEntry);
                    const { holds, reached } = f.verdict(s);
                    return { holds, reached };
                  };
                  const first = finish(group[0]!);
                  for (const other of group.slice(1)) expect(finish(other), f.name).toEqual(first);
                  compared++;
                }
              }
            }
          }
        },
      ),
      { numRuns: 60 },
    );
    expect(compared).toBeGreaterThan(1000);
  });
});

// Hand-made histories: only the entries each case needs.
const frame: HistoryFrame = { version: 1, combination: {} as HistoryFrame['combination'], workload: [], plan: [], schedule: [] };
const verdictOf = (name: string, entries: HistoryEntry[], reference: Reference = new Map()) =>
  checkHistory(propertyByName(name)!, { ...frame, entries }, reference);
const caps = ['resources', 'tools'] as const;
const fault = (t: number, applied = true): HistoryEntry => ({ t, kind: 'fault', fault: 'http-502', at: 0, applied, detail: '' });
const emptyEnd = (t: number, callId: number): HistoryEntry => ({ t, kind: 'end', callId, attempts: 1, req: 0, end: 'result', content: [] });
const opened = (t: number, session: string, c: readonly string[] = caps): HistoryEntry =>
  ({ t, kind: 'server', note: 'session-opened', session, caps: c, transport: 'streamable-http', encoding: 'inline' }) as HistoryEntry;
const reinit = (t: number, session: string, c: readonly string[], newSession?: string): HistoryEntry =>
  ({
    t,
    kind: 'server',
    note: 'reinitialized',
    session,
    policy: 'p',
    caps: c,
    transport: 'streamable-http',
    encoding: 'inline',
    ...(newSession ? { newSession } : {}),
  }) as HistoryEntry;

describe('the property folds decide', () => {
  it('of several silent calls, the verdict names the lowest call id, whatever order they ended in', () => {
    const reference = new Map([
      [0, '[{"type":"text","text":"a"}]'],
      [1, '[{"type":"text","text":"b"}]'],
    ]);
    const v = verdictOf('no-silent-empty', [fault(0), emptyEnd(5, 1), emptyEnd(9, 0)], reference);
    expect(v).toEqual({
      holds: false,
      reached: true,
      why: "call 0 returned a well-formed result that differs from the fault-free run's ([]) with no error",
    });
  });

  it('a call ended after a fault acted: at or after the instant of the first applied fault, even written just before it', () => {
    const ok: HistoryEntry = { t: 10, kind: 'end', callId: 0, attempts: 1, req: 0, end: 'error', reason: 'x' };
    expect(verdictOf('no-silent-hang', [ok, fault(10)]).reached).toBe(true);
    expect(verdictOf('no-silent-hang', [ok, fault(11)]).reached).toBe(false);
    expect(verdictOf('no-silent-hang', [fault(3, false), ok]).reached).toBe(false);
    expect(verdictOf('content-type-consistent', [fault(3), ok]).reached).toBe(true);
  });

  it('caps-immutable: a changed set on a live session is a violation; a new session is a reset', () => {
    expect(verdictOf('caps-immutable', [opened(0, 's0'), reinit(5, 's0', caps)])).toEqual({ holds: true, reached: true });
    expect(verdictOf('caps-immutable', [opened(0, 's0'), reinit(5, 's0', ['tools'])])).toEqual({
      holds: false,
      reached: true,
      why: 'session s0 went from ["resources","tools"] to ["tools"] on a re-initialize (policy p) at t=5 ms',
    });
    // A re-initialize that opened s1 is s1's first handshake, even where no session-opened note follows (the wire observer's).
    expect(verdictOf('caps-immutable', [opened(0, 's0'), reinit(5, 's0', ['tools'], 's1'), reinit(9, 's1', ['tools'])])).toEqual({
      holds: true,
      reached: true,
    });
  });

  it('caps-immutable: a session the server forgot cannot be re-initialized in place', () => {
    const forgotten: HistoryEntry = { t: 3, kind: 'server', note: 'session-forgotten', session: 's0', why: 'expired' };
    expect(verdictOf('caps-immutable', [opened(0, 's0'), forgotten, reinit(5, 's0', caps)])).toEqual({
      holds: false,
      reached: true,
      why: 'session s0 was re-initialized in place (policy p) at t=5 ms though the server had no such session (forgotten or never opened)',
    });
  });

  it('transport-expressible compares the encoding the client relied on with the one the server recorded', () => {
    const sse = (encoding: 'inline' | 'frames'): HistoryEntry =>
      ({ t: 0, kind: 'server', note: 'session-opened', session: 's0', caps, transport: 'sse', encoding }) as HistoryEntry;
    const admit: HistoryEntry = {
      t: 4,
      kind: 'client',
      note: 'admit',
      callId: 0,
      req: 3,
      session: 's0',
      caps: [{ cap: 'streaming-progress', encoding: 'inline' }],
    };
    // A server that says it carries progress inline on SSE is taken at its word: no model logic is consulted.
    expect(verdictOf('transport-expressible', [sse('inline'), admit])).toEqual({ holds: true, reached: true });
    expect(verdictOf('transport-expressible', [sse('frames'), admit])).toEqual({
      holds: false,
      reached: true,
      why: 'call 0 was admitted relying on streaming-progress as inline progress, but session s0 runs on sse, which carries it as frames',
    });
  });

  it('a simple-form property is a fold over the whole history, keyed by it with absolute times', () => {
    const p = {
      name: 'no-ends',
      holdsWhen: 'no call ends',
      check: (h: { entries: HistoryEntry[] }) => ({ holds: !h.entries.some((e) => e.kind === 'end'), reached: true }),
    };
    const f = wholeHistory(p);
    expect(asFold(p)).toBe(f);
    const a = reduce(f, [fault(1), emptyEnd(2, 0)], new Map(), frame);
    const b = reduce(f, [fault(11), emptyEnd(12, 0)], new Map(), frame);
    expect(f.verdict(a)).toEqual({ holds: false, reached: true });
    expect(f.key(a, 2)).not.toBe(f.key(b, 12));
    expect(f.key(a, 2)).toBe(f.key(reduce(f, [fault(1), emptyEnd(2, 0)], new Map(), frame), 2));
  });
});

// A designer's property written as a fold (a policy module's `properties`, with init/step/verdict/key)
// is explored with merged states like the built-in ones: the same verdicts, reasons and plan counts
// as the plain tree of plans and as the same property in the simple whole-history form, from fewer
// states than either. Its functions run sandboxed like any designer hook.
import { describe, expect, it } from 'vitest';
import { ALPHABET_000, VULNERABLE_000 } from '../../sim/core/cells.ts';
import type { HistoryEntry } from '../../sim/core/history.ts';
import { call } from '../../sim/core/workload.ts';
import { PolicyError } from '../../models/additions.ts';
import { PolicyLoadError, registerPolicies } from '../../sim/plugins/policy-module.ts';
import { propertyByName } from '../../properties/properties.ts';
import { exploreJob } from '../../sim/search/exhaustive/explore.ts';
import { DEFAULT_WORLD } from '../../sim/world/world.ts';

interface NoErrorState {
  applied: boolean;
  why: string | null;
}

const HOLDS_WHEN = 'no call ends in an error';
const whyOf = (e: HistoryEntry) => (e.kind === 'end' ? `call ${e.callId} ended in an error at t=${e.t} ms` : '');

const registry = registerPolicies(
  {
    properties: {
      'no-error': {
        holdsWhen: HOLDS_WHEN,
        init: (): NoErrorState => ({ applied: false, why: null }),
        step: (s: NoErrorState, e: HistoryEntry): NoErrorState => {
          if (s.why !== null) return s;
          if (e.kind === 'fault' && e.applied) return { ...s, applied: true };
          if (e.kind === 'end' && e.end === 'error') return { ...s, why: whyOf(e) };
          return s;
        },
        verdict: (s: NoErrorState) => (s.why !== null ? { holds: false, reached: true, why: s.why } : { holds: true, reached: s.applied }),
        key: (s: NoErrorState) => (s.why !== null ? 'V' : s.applied ? 'a' : '-'),
      },
      'no-error-whole': {
        holdsWhen: HOLDS_WHEN,
        check: (h: { entries: HistoryEntry[] }) => {
          const bad = h.entries.find((e) => e.kind === 'end' && e.end === 'error');
          const reached = h.entries.some((e) => e.kind === 'fault' && e.applied);
          return bad ? { holds: false, reached: true, why: whyOf(bad) } : { holds: true, reached };
        },
      },
      'bad-key': {
        holdsWhen: 'never asked',
        init: () => 0,
        step: (s: number) => s + 1,
        verdict: () => ({ holds: true, reached: true }),
        key: (s: number) => s,
      },
    },
  },
  'designer-fold.test',
);

const findProperty = (name: string) => propertyByName(name, registry.properties);

describe("a designer's property as a fold", () => {
  const job = { combination: VULNERABLE_000, workload: [call(), call()], faults: ALPHABET_000, depth: 2 };

  it('is explored with merged states: the same results as without merging and as its whole-history form, from fewer states', () => {
    const fold = findProperty('no-error')!;
    const merged = exploreJob(job, { world: DEFAULT_WORLD, properties: [fold] });
    const tree = exploreJob({ ...job, dedup: false }, { world: DEFAULT_WORLD, properties: [fold] });
    const whole = exploreJob(job, { world: DEFAULT_WORLD, properties: [findProperty('no-error-whole')!] });
    expect(merged.properties[0]).toMatchObject({ property: 'no-error', holds: false, reached: true });
    expect(merged.properties[0]!.why).toMatch(/^call \d ended in an error at t=\d+ ms$/);
    for (const other of [tree, whole]) {
      expect(other.properties.map(({ property: _, ...o }) => o)).toEqual(merged.properties.map(({ property: _, ...o }) => o));
      expect(other.plansByFaults).toEqual(merged.plansByFaults);
    }
    expect(merged.states).toBeLessThan(tree.states);
    expect(merged.states).toBeLessThan(whole.states);
  });

  it('runs sandboxed: a key that is not a string is a policy error naming the property', () => {
    expect(() => exploreJob(job, { world: DEFAULT_WORLD, properties: [findProperty('bad-key')!] })).toThrow(PolicyError);
    expect(() => exploreJob(job, { world: DEFAULT_WORLD, properties: [findProperty('bad-key')!] })).toThrow(
      /key returned \d+: expected a string/,
    );
  });

  it('is checked when loaded: a fold with an unknown part is refused in one line', () => {
    const fold = {
      holdsWhen: 'x',
      init: () => 0,
      step: () => 0,
      verdict: () => ({ holds: true, reached: true }),
      key: () => '',
      explain: () => '',
    };
    expect(() => registerPolicies({ properties: { 'odd-fold': fold } }, 'odd.ts')).toThrow(PolicyLoadError);
    expect(() => registerPolicies({ properties: { 'odd-fold': fold } }, 'odd.ts')).toThrow(
      "--policies odd.ts: properties.odd-fold has an unknown key 'explain' (valid: holdsWhen, family, column, check, init, step, verdict, key)",
    );
  });
});

// A choice that depends on one knob, written as what each of the knob's values decides
// (`decision(value)`), in any order the protocol reads best. Where every value the knob can take
// decides the same, the run does not depend on that knob here, and a run that counts the knobs it
// reads (sim/world/knob-reads.ts) does not count it: the run store (sim/search/run-store.ts) then
// reuses the run for a combination that differs in that knob alone. Where the values differ, the
// knob is read as any other read is. Sound by construction: the read is skipped only after every
// value was asked, so no model file orders its reads for the store (a hand-ordered read is correct
// only while its author's reasoning about every value stays true).
//
// A mitigation search changes one knob of a cell, and the cell's own runs then answer every run of
// it that the knob did not decide (what that saves: the bench, docs/performance.md).
//
// A set knob (`client.guards`) is chosen over every set its values make (models/client-guards.ts
// `guardSets`); the guards' hot read, a tools/call response's checks, is read only where some set refuses
// it (client-guards.ts `responseRefusal`). Measured when the guards moved to reads where they decide
// (issue 40; in-process comparison on one thread, alternately with 1f40a6a, load ~15 on 2 cores): the
// default comparison's runs 28,018 → 21,040 (finder searches 14,116 → 8,146), CPU 7.56 → 6.95 s (median
// of 3); in the CLI's two threads no change stood out of the noise (4 rounds, 11–13 s either way).

/** Where a tracked policy side (sim/world/knob-reads.ts) keeps the plain one, read without counting. */
export const UNCOUNTED: unique symbol = Symbol('the policy side, read without counting');

/**
 * `decision(policy[knob])`, counting the read of `knob` only where its value decides: where some value
 * of `values` (every value the knob can take, or null where they cannot all be listed, as for a knob
 * a policy module extends) gives a different answer (`same`) than the value set. `decision` must be
 * a pure function of the value and what it closes over: it is asked once per value.
 */
export function choose<P extends object, K extends keyof P & string, T>(
  policy: P,
  knob: K,
  values: readonly P[K][] | null,
  decision: (value: P[K]) => T,
  same: (a: T, b: T) => boolean = Object.is,
): T {
  const plain = (policy as { [UNCOUNTED]?: P })[UNCOUNTED];
  if (plain === undefined || values === null) return decision(policy[knob]);
  const value = plain[knob];
  const answer = decision(value);
  let decided: boolean;
  if (typeof value !== 'object') {
    decided = !values.includes(value) || values.some((other) => other !== value && !same(decision(other), answer));
  } else {
    // A set knob's value (`client.guards`): another array with the same members is the same value.
    decided = !values.some((v) => sameSet(v, value)) || values.some((other) => !sameSet(other, value) && !same(decision(other), answer));
  }
  if (decided) readThrough(policy, knob);
  return answer;
}

/** Two values of a set knob (`client.guards`): arrays, equal when their members are, in order (a
 *  combination's sets are in knob order: models/policies.ts `normalizeSet`). */
function sameSet(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Reads `knob` through the tracked side, which counts the read (the value is the plain side's). */
function readThrough<P extends object>(policy: P, knob: keyof P): P[keyof P] {
  return policy[knob];
}

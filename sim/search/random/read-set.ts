// Which knobs of a combination a run reads (its "read set"), tracked as the run goes: a model run is
// a deterministic function of its input and of the knob values it reads, so another combination
// that agrees on every knob a run read runs it the same way (compare/mitigation-memo.ts reuses
// judgements on that ground; test/sim/search/read-set.test.ts checks the claim).
//
// A tracked combination has the same fields in the same order, each an own enumerable getter that
// sets the knob's bit in the mask of the innermost `readsDuring` scope: JSON.stringify, spreads and
// structuredClone still see the same values, and count as reads of every field (sound: they only
// lose reuse). The scopes nest (an inner scope's reads are the outer's too); everything here is
// synchronous, so one mask per thread is enough.
import { CLIENT_KNOBS, SERVER_KNOBS, type Combination } from '../../../models/policies.ts';

/** Every knob, `side.name`, in bit order. */
export const KNOBS: readonly string[] = [
  ...Object.keys(SERVER_KNOBS).map((k) => `server.${k}`),
  ...Object.keys(CLIENT_KNOBS).map((k) => `client.${k}`),
];
const BIT = new Map(KNOBS.map((k, i) => [k, 1 << i]));
/** Every knob read. */
export const ALL_KNOBS = (1 << KNOBS.length) - 1;

/** The reads of the scope that runs now. */
let reads = 0;

/** `f()` and the knobs it read (tracked combinations only); they count for the enclosing scope too. */
export function readsDuring<T>(f: () => T): [T, number] {
  const outer = reads;
  reads = 0;
  try {
    const value = f();
    return [value, reads];
  } finally {
    reads |= outer;
  }
}

/** Count `mask` as read in the current scope: reads made once for many runs (a judge's reference). */
export function noteReads(mask: number): void {
  reads |= mask;
}

function trackedSide<T extends object>(side: 'server' | 'client', policy: T): T {
  const out = {} as T;
  for (const [key, value] of Object.entries(policy)) {
    const bit = BIT.get(`${side}.${key}`)!;
    Object.defineProperty(out, key, {
      enumerable: true,
      get: () => {
        reads |= bit;
        return value;
      },
    });
  }
  return out;
}

/** Whether `c` has exactly the known knobs (only such a combination is tracked knob by knob). */
export function trackable(c: Combination): boolean {
  const keys = [...Object.keys(c.server).map((k) => `server.${k}`), ...Object.keys(c.client).map((k) => `client.${k}`)];
  return Object.keys(c).length === 2 && keys.length === KNOBS.length && keys.every((k) => BIT.has(k));
}

/** `c` with each knob read tracked. */
export function trackedCombination(c: Combination): Combination {
  if (!trackable(c)) throw new Error(`internal: a combination with unknown knobs is not tracked: ${JSON.stringify(c)}`);
  return { server: trackedSide('server', c.server), client: trackedSide('client', c.client) };
}

/** Each knob's value as one string, in bit order (the guards joined with '+'). */
export function knobValues(c: Combination): string[] {
  const sides = { server: c.server as unknown as Record<string, unknown>, client: c.client as unknown as Record<string, unknown> };
  return KNOBS.map((k) => {
    const [side, name] = k.split('.') as ['server' | 'client', string];
    const v = sides[side][name];
    return Array.isArray(v) ? v.join('+') : String(v);
  });
}

/** The knobs (as bits) on which two combinations' `knobValues` differ. */
export function differing(a: readonly string[], b: readonly string[]): number {
  let mask = 0;
  for (let i = 0; i < KNOBS.length; i++) if (a[i] !== b[i]) mask |= 1 << i;
  return mask;
}

/** The knob names of a mask, for messages and tests. */
export function knobsOf(mask: number): string[] {
  return KNOBS.filter((_, i) => (mask & (1 << i)) !== 0);
}

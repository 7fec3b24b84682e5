// Which knobs of its combination a run reads. A model run is a deterministic function of its input
// and of the knob values it reads, so a combination that agrees with it on every knob it read runs
// it the same way: the run store (search/run-store.ts) reuses runs on that ground, and
// test/sim/search/run-store.test.ts checks the claim by running with the store on and off.
//
// A world that counts its reads hands its machines the combination's tracked twin, whose knobs are
// own enumerable getters, each setting its knob's bit in the twin's mask; the world zeroes the mask
// before the run and returns it with the run's result. One twin per combination object (a fresh one
// per run cost a tenth of the matrix's time: ten property definitions, and object shapes the
// machines' code had not seen). JSON.stringify, spreads and structuredClone of a twin still see the
// same values and count as reads of every field: sound, they only lose reuse. Runs are synchronous
// and never nest, so one mask per twin is enough. A choice a model makes with `choose`
// (models/knob-choice.ts) reads the plain side first, and counts the knob only where its value decides.
import { UNCOUNTED } from '../../models/knob-choice.ts';
import { CLIENT_KNOBS, SERVER_KNOBS, type Combination, type KnobSpec } from '../../models/policies.ts';

/** Every knob, `side.name`, in bit order. */
export const KNOBS: readonly string[] = [
  ...Object.keys(SERVER_KNOBS).map((k) => `server.${k}`),
  ...Object.keys(CLIENT_KNOBS).map((k) => `client.${k}`),
];
/** Each knob's built-in spec (its values), in bit order. */
export const KNOB_SPECS: readonly KnobSpec[] = [...Object.values(SERVER_KNOBS), ...Object.values(CLIENT_KNOBS)];
const BIT = new Map(KNOBS.map((k, i) => [k, 1 << i]));
/** Every knob: what a run whose reads cannot be told is said to have read. */
export const ALL_KNOBS = (1 << KNOBS.length) - 1;

/** The knobs one run read, as bits (`KNOBS` order): written by its world's tracked combination. */
export interface KnobReads {
  mask: number;
}

/** Each knob's side and name, in bit order. */
const PLACES = KNOBS.map((k) => k.split('.') as ['server' | 'client', string]);
const SERVER_COUNT = Object.keys(SERVER_KNOBS).length;
const CLIENT_COUNT = Object.keys(CLIENT_KNOBS).length;

/** Whether `c` has exactly the known knobs (only such a combination is tracked knob by knob). */
export function trackable(c: Combination): boolean {
  // Counted, then each known knob looked up: no strings built (the mitigation finder asks this of
  // every combination it judges, hundreds of thousands in a full matrix).
  if (Object.keys(c).length !== 2 || Object.keys(c.server).length !== SERVER_COUNT || Object.keys(c.client).length !== CLIENT_COUNT)
    return false;
  for (const [side, name] of PLACES) if (!Object.hasOwn(c[side], name)) return false;
  return true;
}

function trackedSide<T extends object>(side: 'server' | 'client', policy: T, into: KnobReads): T {
  // Not enumerable, a symbol: spreads, JSON and structuredClone never see it (models/knob-choice.ts reads it).
  const out = Object.defineProperty({}, UNCOUNTED, { value: policy }) as T;
  for (const [key, value] of Object.entries(policy)) {
    const bit = BIT.get(`${side}.${key}`)!;
    Object.defineProperty(out, key, {
      enumerable: true,
      get: () => {
        into.mask |= bit;
        return value;
      },
    });
  }
  return out;
}

/** A combination's tracked twin and the mask its getters write. */
export interface Tracked {
  combination: Combination;
  reads: KnobReads;
}

const twins = new WeakMap<Combination, Tracked | null>();

/** `c`'s tracked twin; null where `c`'s reads cannot be told (see `trackable`). */
export function trackedTwin(c: Combination): Tracked | null {
  let twin = twins.get(c);
  if (twin === undefined) {
    if (trackable(c)) {
      const reads = { mask: 0 };
      twin = { combination: { server: trackedSide('server', c.server, reads), client: trackedSide('client', c.client, reads) }, reads };
    } else twin = null;
    twins.set(c, twin);
  }
  return twin;
}

/** Each knob's value as one string, in bit order (the guards joined with '+'). */
export function knobValues(c: Combination): string[] {
  const sides = { server: c.server as unknown as Record<string, unknown>, client: c.client as unknown as Record<string, unknown> };
  return PLACES.map(([side, name]) => {
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

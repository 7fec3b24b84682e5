// The run store: one summary per model run, kept per thread, at the runner's boundary
// (search/random/input-judge.ts asks it before it runs anything). A model run is a function of its
// input, the world's options and the knob values it read (world/knob-reads.ts): a combination that
// agrees with a stored run on every knob it read gets that run's summary without running it. Every
// reuse is answered here: fault-free references (the run of a workload with an empty plan), a cell's
// sampled runs (kept whole: search/random/input-judge.ts `InputJudge.sampled`), the
// shrink's candidates, and the mitigation finder's marks of its searches' and replays' runs
// (compare/mitigation-runs.ts `markFor`; a cell's sampled runs are added for them, `rememberRuns`).
// Two searches made of runs stand on the same ground and are kept here too, under the knobs all their
// runs read: a minimality certificate (search/certify.ts) and a whole shrink (`shrink` in
// search/random/check-runner.ts).
// A comparison's cells and searches run the same inputs under combinations that differ in knobs
// most runs never read, so most of its runs need not run at all (docs/performance.md has what it
// saves, and how its bound was chosen).
//
// A summary holds what its readers need and nothing of the history: the properties judged and those
// violated (by property, `propertyBit`), the outcome flags, a silent run's mechanism (read from its
// history once), for a fault-free run its reference, and for a sampled run its judgement, stats and
// coverage (what a cell's tally reads; a history is never kept). Facts about one run arrive from several
// readers (a cell's judge, the finder's), so `add` merges them into the one summary.
//
// Kept by the world's options, the input's key, then the knobs read, then the values the storing
// combination gave those knobs (as a small id): a lookup tries each set of knobs kept for the key
// (runs of one input read few different sets), one Map lookup each. Bounded: past `bounds.summaries` summaries the store starts again.
// Speed only: results are the same with the store off (`RUN_STORE=off`, or `runStore.enabled`), which
// test/sim/search/run-store.test.ts checks. Everything here is synchronous: one store per thread.
import type { Combination } from '../../models/policies.ts';
import type { FaultPlan } from '../core/plan.ts';
import type { Workload } from '../core/workload.ts';
import type { Reference } from '../../properties/outcomes.ts';
import type { Property } from '../../properties/properties.ts';
import { ALL_KNOBS, KNOB_SPECS, knobValues, trackable } from '../world/knob-reads.ts';
import type { WorldOptions } from '../world/world.ts';
import { worldKey } from './world-key.ts';
import { SharedParts, type SampledRun } from './shared-parts.ts';

/** Outcome flags: some call went silent; some call failed loudly. */
export const SILENT = 1;
export const LOUD = 2;

/** What is known of one run. */
export interface RunSummary {
  /** Properties judged, and those violated, as bits (`propertyBit`). */
  judged: number;
  violated: number;
  /** SILENT | LOUD of its calls' outcomes; undefined until the run is judged. */
  outcomes?: number;
  /** How a silent run went silent (compare/causes.ts), once its history was read. */
  mechanism?: string | null;
  /** The reference a fault-free run gives (properties/outcomes.ts). */
  reference?: Reference;
  /** A sampled run whole, as a cell's tally reads it (search/random/input-judge.ts `InputJudge.sampled`),
   *  and which judge made it (`sampledBy`: its properties and whether it counted stats). */
  sampled?: SampledRun;
  sampledBy?: string;
  /** For an exhaustive search of plans with fewer faults (search/certify.ts, keyed apart from the runs):
   *  the shortest plan that violates its property, null where none does. */
  shortest?: FaultPlan | null;
  /** For a shrink (search/random/check-runner.ts, keyed apart from the runs): where it ended. */
  shrunk?: Shrunk;
}

/** Where a shrink of a counterexample ended: the input, and fast-check's seed, path and shrink steps. */
export interface Shrunk {
  drawn: [FaultPlan, Workload, number[]];
  seed: number;
  path: string;
  shrinks: number;
}

/** A stored run: its summary and the knobs it read. */
export interface Stored {
  summary: RunSummary;
  reads: number;
}

/** The runs of one input under one world: by the knobs read (`reads[i]`), then by those knobs' values. */
interface Slot {
  reads: number[];
  byValues: Map<number, RunSummary>[];
}

/** Summaries kept per thread at most: a bound on its memory that costs little reuse (docs/performance.md). */
const LIMIT = 50_000;

/** Each knob's field in a packed value id (`RunScope.valuesIn`): as many bits as its built-in values
 *  need (a set knob's: its subsets), at its offset; 19 bits for the 11 knobs. */
const FIELD_BITS = KNOB_SPECS.map((spec) => {
  const count = spec.subset ? 2 ** spec.values.length : spec.values.length;
  return Math.max(1, Math.ceil(Math.log2(count)));
});
const FIELD_OFFSETS = FIELD_BITS.map((_, i) => FIELD_BITS.slice(0, i).reduce((a, b) => a + b, 0));
/** Whether every knob's field fits a small integer (V8's Smi): else no id is packed. */
const PACKABLE = FIELD_BITS.reduce((a, b) => a + b, 0) <= 30;

/** Property objects by identity, as bits: two properties of one name (a test's, a policy module's)
 *  never share. 30 at most: a property past them is never stored (its runs always run). */
const propertyBits = new WeakMap<Property, number>();
let nextProperty = 0;
export function propertyBit(p: Property): number {
  let bit = propertyBits.get(p);
  if (bit === undefined) propertyBits.set(p, (bit = nextProperty < 30 ? 1 << nextProperty++ : 0));
  return bit;
}

export class RunStore {
  /** By world (`worldKey`), then input key: the sets of knobs its runs read, each with its runs by the
   *  values of those knobs. Two levels rather than one key of both: a lookup then hashes strings it was
   *  given (whose hash V8 keeps), never a new concatenation of them. */
  private readonly slots = new Map<string, Map<string, Slot>>();
  /** Knob values in some mask, as a small id: equal values on the same knobs, one id. Kept by the mask
   *  and the values' codes (`codesOf`), a character each, not the values joined (keys of a hundred
   *  characters): on the full matrix's first 700 cells in one thread, twice each alternating with the
   *  build before, heap after a collection 74.6–74.9 → 66.5–66.6 MB, CPU 16.8 and 17.5 → 16.4 and 16.6 s. */
  private readonly valueIds = new Map<string, number>();
  /** Each knob's values as small numbers, in the order first seen (by knob, in bit order). Never cleared:
   *  a knob has few values. */
  private readonly codes: Map<string, number>[] = [];
  private kept = 0;
  /** The parts of the sampled runs kept, each distinct one once. */
  readonly shared = new SharedParts();
  /** Bumped whenever the store starts again (the test that its bound is reached). */
  generation = 0;
  /** Off: nothing is found and nothing kept (the equality tests; `RUN_STORE=off`). */
  enabled = process.env.RUN_STORE !== 'off';
  /** Off: a cell's sampled runs are neither found here nor kept whole (`InputJudge.sampled`; its equality test). */
  samples = true;
  /** Off: shrinks are neither found here nor kept (search/random/check-runner.ts `shrink`; its equality test). */
  shrinks = true;

  /** Off: every value id is the string-keyed one (`valueId`), never packed (its equality test). */
  packs = true;

  /** Summaries kept before the store starts again: settable, for the test that a small bound changes no result. */
  bounds = { summaries: LIMIT };

  /** The store as runs of `c` under `world` see it; undefined when it is off or `c`'s reads cannot be told. */
  scope(c: Combination, world: WorldOptions): RunScope | undefined {
    return this.enabled && trackable(c) ? new RunScope(this, knobValues(c), worldKey(world)) : undefined;
  }

  /** A scope whose every run reads every knob of one fixed combination: real code, whose runs are
   *  kept so that a shrink never runs again an input the sampling judged (it may answer otherwise). */
  fixedScope(): RunScope {
    return new RunScope(this, [], '');
  }

  /** A combination's knob values (`knobValues`) as one character each: the value's code. */
  codesOf(values: readonly string[]): string {
    let s = '';
    for (let i = 0; i < values.length; i++) {
      let codes = this.codes[i];
      if (!codes) this.codes[i] = codes = new Map();
      let code = codes.get(values[i]!);
      if (code === undefined) codes.set(values[i]!, (code = codes.size));
      s += String.fromCharCode(code);
    }
    return s;
  }

  /** The id of the values (as `codesOf` gives them) on `mask`'s knobs. */
  valueId(mask: number, codes: string): number {
    let key = String.fromCharCode(mask);
    for (let i = 0; i < codes.length; i++) if ((mask & (1 << i)) !== 0) key += codes[i];
    let id = this.valueIds.get(key);
    if (id === undefined) this.valueIds.set(key, (id = this.valueIds.size));
    return id;
  }

  /** A run of `key` (under the world `world`) whose read knobs `valuesIn`'s combination agrees on: the
   *  first `accept` takes (any, without it). */
  find(world: string, key: string, valuesIn: (mask: number) => number, accept?: (s: RunSummary) => boolean): Stored | undefined {
    const slot = this.slots.get(world)?.get(key);
    if (!slot) return undefined;
    for (let i = 0; i < slot.reads.length; i++) {
      const reads = slot.reads[i]!;
      const summary = slot.byValues[i]!.get(valuesIn(reads));
      if (summary !== undefined && (!accept || accept(summary))) return { summary, reads };
    }
    return undefined;
  }

  add(world: string, key: string, reads: number, valuesIn: (mask: number) => number, facts: Partial<RunSummary>): void {
    if (this.kept >= this.bounds.summaries) this.clear();
    let keys = this.slots.get(world);
    if (!keys) this.slots.set(world, (keys = new Map()));
    let slot = keys.get(key);
    if (!slot) keys.set(key, (slot = { reads: [], byValues: [] }));
    let at = slot.reads.indexOf(reads);
    if (at < 0) {
      at = slot.reads.length;
      slot.reads.push(reads);
      slot.byValues.push(new Map());
    }
    const byValues = slot.byValues[at]!;
    const values = valuesIn(reads);
    const kept = byValues.get(values);
    if (!kept) {
      this.kept++;
      byValues.set(values, { judged: 0, violated: 0, ...facts });
      return;
    }
    // The same run (same input, same values of the same knobs): facts from another reader join it.
    kept.judged |= facts.judged ?? 0;
    kept.violated |= facts.violated ?? 0;
    if (facts.outcomes !== undefined) kept.outcomes = facts.outcomes;
    if (facts.mechanism !== undefined) kept.mechanism = facts.mechanism;
    if (facts.reference !== undefined) kept.reference = facts.reference;
    if (facts.shortest !== undefined) kept.shortest = facts.shortest;
    if (facts.shrunk !== undefined) kept.shrunk = facts.shrunk;
    if (facts.sampled !== undefined) {
      kept.sampled = facts.sampled;
      kept.sampledBy = facts.sampledBy;
    }
  }

  clear(): void {
    this.slots.clear();
    this.valueIds.clear();
    this.shared.clear();
    this.kept = 0;
    this.generation++;
  }

  /** Summaries kept now (the test that the store is used at all). */
  get size(): number {
    return this.kept;
  }
}

/** The runs of one combination under one world, as they find and add summaries. */
export class RunScope {
  /** The combination's knob values as codes (`RunStore.codesOf`), a character each; empty for a fixed scope. */
  private readonly codes: string;
  /** Each knob's code at its field of a packed id (`FIELD_OFFSETS`), and the knobs whose code fits its field. */
  private readonly fields: number[];
  private readonly packedKnobs: number;

  constructor(
    private readonly store: RunStore,
    /** The combination's knob values in bit order (none: a fixed scope, whose runs read every knob). */
    values: readonly string[],
    /** The world's key (`worldKey`; a fixed scope's: empty). */
    private readonly world: string,
  ) {
    this.codes = store.codesOf(values);
    this.fields = [];
    let packed = 0;
    for (let i = 0; i < this.codes.length && PACKABLE && store.packs; i++) {
      const code = this.codes.charCodeAt(i);
      this.fields.push(code << FIELD_OFFSETS[i]!);
      if (code < 1 << FIELD_BITS[i]!) packed |= 1 << i;
    }
    this.packedKnobs = packed;
  }

  /** The combination's values on `mask`'s knobs as one number, equal for two combinations exactly when
   *  they agree on those knobs: its fields or-ed together where every code fits its field (codes count
   *  values in the order first seen, so a knob's first as many values as its built-ins fit: every value
   *  of a comparison without modules), else the string-keyed `valueId`, negated so that the two never meet. It replaced
   *  a bounded cache of string-keyed ids by combination, which the full matrix's main thread missed
   *  754,000 times: peak RSS 393–412 → 374–384 MB, CPU the same (docs/performance.md). */
  private readonly valuesIn = (mask: number): number => {
    if ((mask & ~this.packedKnobs) !== 0 || this.codes.length === 0) return ~this.store.valueId(mask, this.codes);
    const fields = this.fields;
    let id = 0;
    for (let i = 0, m = mask; m !== 0; i++, m >>>= 1) if ((m & 1) !== 0) id |= fields[i]!;
    return id;
  };

  /** The stored run of input `key` this combination would run the same way, if any (one `accept` takes). */
  find(key: string, accept?: (s: RunSummary) => boolean): Stored | undefined {
    return this.store.find(this.world, key, this.valuesIn, accept);
  }

  /** Whether sampled runs are kept whole (`RunStore.samples`). */
  get keepsSamples(): boolean {
    return this.store.samples;
  }

  /** Whether shrinks are kept (`RunStore.shrinks`). */
  get keepsShrinks(): boolean {
    return this.store.shrinks;
  }

  /** The parts of the sampled runs kept, each distinct one once (`RunStore.shared`). */
  get shared(): SharedParts {
    return this.store.shared;
  }

  /** Input `key` ran under this combination, read `reads` (every knob where unknown) and gave `facts`. */
  add(key: string, reads: number, facts: Partial<RunSummary>): void {
    this.store.add(this.world, key, this.codes.length === 0 ? ALL_KNOBS : reads, this.valuesIn, facts);
  }
}

/** This thread's store. */
export const runStore = new RunStore();

// The mitigation finder's runs (compare/mitigations.ts): what a search draws, which combination it
// runs (`searchedCombination`), and how each run is marked for the finder (silent by which mechanism,
// loud, stuck), judged as it goes, its history recorded only for a silent run. Every mark is asked of
// the run store first (search/run-store.ts, `markFor`): a run of the same input that read only knobs
// on which the two combinations agree — an earlier search's, a replay's, a cell's sampled run — marks
// it without a run; what a run here tells (outcomes, `recovers`, a silent run's mechanism) is kept there.
//
// A search runs the changed combination as `searchedCombination` says: with what it never reaches at
// its defaults (`applicableCombination`), so that a change to the 2026-07-28 revision lands on the
// same search from every cell that differs only in session knobs, and runs it once; and with
// `client.reissue=idempotent-only` as `never` where the search draws no idempotent call.
import { PolicyError } from '../../models/additions.ts';
import { applicableCombination, type Combination } from '../../models/policies.ts';
import type { FaultName } from '../../models/faults.ts';
import type { Judgement } from '../../properties/judge.ts';
import { inputs, shapeKey, type InputShape } from '../search/random/arbitraries.ts';
import { checkShape, CombinationJudge } from '../search/random/check.ts';
import { inputStream } from '../search/random/input-stream.ts';
import { drawnKey, type Drawn } from '../search/random/run-keys.ts';
import { propertyBit, runStore, type RunSummary } from '../search/run-store.ts';
import type { RunConfig } from '../plugins/run-config.ts';
import { knobValues, trackable } from '../world/knob-reads.ts';
import type { Finding } from './findings.ts';
import { causeOf } from './causes.ts';
import { internedMark, type RunMark, type Searched } from './mitigation-searches.ts';

/** Random runs per changed combination at most (a cell's own --runs below it): as many as a default cell. */
export const MITIGATION_RUNS = 200;

/** What a run's judgement says for the finder, as bits: a call went silent, a call failed loudly (the
 *  run store's outcome flags, search/run-store.ts), it did not recover. */
const SILENT = 1;
const LOUD = 2;
const STUCK = 4;
/** A side-effecting tool ran twice for one call (at-most-once violated): silent, with no silent call. */
const TWICE = 8;
/** The mechanism a run silent only by TWICE has (compare/causes.ts): known without its history. */
const DUPLICATE = 'duplicate-execution';

/** A run's flags (SILENT | LOUD | STUCK) from its judgement. */
export function flagsOf(j: Judgement): number {
  let flags = 0;
  for (const o of j.outcomes) {
    if (o.outcome === 'silent-empty' || o.outcome === 'silent-hang') flags |= SILENT;
    else if (o.outcome === 'error') flags |= LOUD;
  }
  if (j.verdicts['at-most-once'] && !j.verdicts['at-most-once'].holds) flags |= TWICE;
  return j.verdicts.recovers && !j.verdicts.recovers.holds ? flags | STUCK : flags;
}

/** One run's mark from its flags; `recorded` gives its recorded run, asked for only when a call went
 *  silent (the mechanism is read from its history): a run judged as it went is then run again, recorded. */
function markOf(
  flags: number,
  recorded: () => { outcomes: Judgement['outcomes']; entries: Finding['history'] },
  plan: Finding['plan'],
): RunMark {
  let silent: string | null = null;
  if (flags & SILENT) {
    const { outcomes, entries } = recorded();
    const calls = outcomes.map((o) => ({ callId: o.callId, outcome: o.outcome }));
    silent = causeOf({ kind: 'violation', outcomes: calls, history: entries, plan, properties: [] } as unknown as Finding).mechanism;
  } else if (flags & TWICE) silent = DUPLICATE;
  return internedMark(silent, (flags & LOUD) !== 0, (flags & STUCK) !== 0);
}

export interface MitigationContext {
  /** The comparison's config as the finder runs it (its own properties): every run here uses it. */
  config: RunConfig;
  faults: readonly FaultName[];
  shape: InputShape;
  /** Searches already run in this comparison, by combination, alphabet and shape (speed only). */
  cache: Map<string, RunMark[] | 'policy-error'>;
  /** The judges of this comparison's changed combinations, by combination: each computes a
   *  workload's fault-free reference once, for every alphabet and shape (speed only). */
  judges?: Map<string, CombinationJudge>;
  /** The inputs each alphabet and shape draws from the seed (the same for every combination searched under them). */
  draws?: Map<string, Drawn[]>;
  /** Marks asked for, runs judged and runs recorded here (the rest the run store answered): for `timing`. */
  counts?: FinderRunCounts;
}

export interface FinderRunCounts {
  asked: number;
  judged: number;
  recorded: number;
}

/** The shape a search draws from: the finding's cell's, under its alphabet (unlike `check`, never
 *  with idempotent calls added: the finder's runs are its own). */
export function searchShape(faults: readonly FaultName[], shape: InputShape): InputShape {
  return { ...shape, plan: { ...shape.plan, faults } };
}

/** Runs a search takes from the seed: a cell's own first runs when it has at least as many. */
export function searchRuns(runs: number): number {
  return Math.min(runs, MITIGATION_RUNS);
}

/**
 * The combination a search of `changed` runs: one that every search run judges as `changed` would.
 * What it never reaches is at its defaults (`applicableCombination`). And without an idempotent call
 * among the draws, `client.reissue=idempotent-only` re-sends nothing, as `never` does: the runs then
 * differ in the words of an error's reason alone, which no verdict and no mechanism reads
 * (test/sim/compare/searched-combination.test.ts checks both, run by run).
 */
export function searchedCombination(changed: Combination, shape: InputShape): Combination {
  const c = applicableCombination(changed);
  if (c.client.reissue !== 'idempotent-only' || shape.workload?.idempotent) return c;
  return { server: c.server, client: { ...c.client, reissue: 'never' } };
}

/** The search's inputs: the first `runs` of the seed's sequence, drawn once per alphabet and shape. */
export function drawsOf(x: Omit<MitigationContext, 'cache'>): Drawn[] {
  const { seed, runs } = x.config;
  const n = searchRuns(runs);
  const key = JSON.stringify([x.faults, x.shape, seed, n]);
  let drawn = x.draws?.get(key);
  if (!drawn) {
    drawn = [...inputStream(inputs(searchShape(x.faults, x.shape)), seed, n)];
    x.draws?.set(key, drawn);
  }
  return drawn;
}

const JUDGES_KEPT = 256;

/** The finder's judge of `c`: outcomes and its properties, no vacuity stats. */
export function judgeOf(c: Combination, x: Omit<MitigationContext, 'cache'>): CombinationJudge {
  // Its knob values, as the run store tells combinations apart, where it can: a third the cost of
  // JSON, asked hundreds of thousands of times in a full matrix.
  const key = trackable(c) ? knobValues(c).join('\u0000') : JSON.stringify(c);
  let j = x.judges?.get(key);
  if (!j) {
    j = new CombinationJudge(c, x.config, false);
    // Bounded: a full matrix's findings have thousands of neighbours, each judge a reference per workload.
    if (x.judges && x.judges.size >= JUDGES_KEPT) x.judges.clear();
    x.judges?.set(key, j);
  }
  return j;
}

/** The search of `c` under the context's alphabet and shape, run in this thread. The runs are
 *  judged as they go; only a silent one is run again, recorded, for its mechanism. `sampled`: the
 *  flags of these same runs, judged already (the cell of combination `c` drew them: compare.ts), so
 *  that only the silent ones run here. */
export function runSearch(c: Combination, x: Omit<MitigationContext, 'cache'>, sampled?: Uint8Array): Searched {
  const steps = searchSteps(c, x, sampled);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs a search takes between two pauses of `searchSteps`: a few milliseconds. */
const SEARCH_SLICE = 10;

/** The bit of `recovers` among the finder's properties (run-store.ts `propertyBit`); 0 without it. */
function recoversBit(x: Omit<MitigationContext, 'cache'>): number {
  const p = x.config.properties.find((q) => q.name === 'recovers');
  return p ? propertyBit(p) : 0;
}

/** The bits of `recovers` and `at-most-once` among the finder's properties (run-store.ts `propertyBit`;
 *  0 for one it does not judge). */
interface FinderBits {
  recovers: number;
  once: number;
}

function finderBits(x: Omit<MitigationContext, 'cache'>): FinderBits {
  const once = x.config.properties.find((q) => q.name === 'at-most-once');
  return { recovers: recoversBit(x), once: once ? propertyBit(once) : 0 };
}

/** The finder's flags of a stored run, where it says enough: its outcomes, its `recovers` verdict and,
 *  where the finder judges it, its `at-most-once` verdict. */
function storedFlags(s: RunSummary, bits: FinderBits): number | undefined {
  const judged = bits.recovers | bits.once;
  if (bits.recovers === 0 || s.outcomes === undefined || (s.judged & judged) !== judged) return undefined;
  return s.outcomes | ((s.violated & bits.recovers) !== 0 ? STUCK : 0) | ((s.violated & bits.once) !== 0 ? TWICE : 0);
}

/** The run store's facts of a run with these flags (and, silent, its mechanism). */
function factsOf(flags: number, bits: FinderBits, mechanism?: string | null): Partial<RunSummary> {
  return {
    outcomes: flags & (SILENT | LOUD),
    judged: bits.recovers | bits.once,
    violated: (flags & STUCK ? bits.recovers : 0) | (flags & TWICE ? bits.once : 0),
    ...(mechanism !== undefined ? { mechanism } : {}),
  };
}

/** A cell of combination `c` ran the context's draws first: the flags of those runs and the knobs
 *  each read (compare.ts `checkCell`), kept in the run store for the searches' runs that read the same. */
export function rememberRuns(c: Combination, x: Omit<MitigationContext, 'cache'>, flags: Uint8Array, reads: Uint16Array): void {
  // Only a cell that drew the search's inputs (`check` adds idempotent calls for a client that tells them apart).
  if (shapeKey(checkShape(c, x.faults, x.shape)) !== shapeKey(searchShape(x.faults, x.shape))) return;
  const drawn = drawsOf(x);
  const store = runStore.scope(c, x.config.world);
  const bits = finderBits(x);
  if (!store || bits.recovers === 0 || drawn.length !== flags.length) return;
  for (const [i, d] of drawn.entries()) store.add(drawnKey(d), reads[i]!, factsOf(flags[i]!, bits));
}

/**
 * The mark of one input under the judge's combination. From the run store where a run of it that read
 * only knobs this combination agrees on says enough (its flags; silent, its mechanism too); else run
 * here — judged as it goes, recorded only when silent (the mechanism is read from its history) — and
 * what the run told kept in the store. `given`: this very run's flags, judged already (its own cell's,
 * whose reads are not known): a loud or clean run is marked from them, a silent one recorded.
 */
export function markFor(j: CombinationJudge, drawn: Drawn, x: Omit<MitigationContext, 'cache'>, given?: number): RunMark {
  const [plan, workload, schedule] = drawn;
  const counts = x.counts;
  if (counts) counts.asked++;
  const bits = finderBits(x);
  // A stored run that gives the whole mark (its flags; silent, its mechanism too) first, else one that gives its flags.
  const whole = (s: RunSummary) => {
    const f = storedFlags(s, bits);
    return f !== undefined && (!(f & SILENT) || s.mechanism !== undefined);
  };
  const key = drawnKey(drawn);
  const stored = j.stored(key, whole) ?? j.stored(key, (s) => storedFlags(s, bits) !== undefined);
  if (stored && whole(stored.summary)) {
    const f = storedFlags(stored.summary, bits)!;
    const silent = f & SILENT ? (stored.summary.mechanism ?? null) : f & TWICE ? DUPLICATE : null;
    return internedMark(silent, (f & LOUD) !== 0, (f & STUCK) !== 0);
  }
  const flagsKnown = stored ? storedFlags(stored.summary, bits) : given;
  let reads = 0;
  const recorded = () => {
    if (counts) counts.recorded++;
    const r = j.recorded(plan, workload, schedule);
    reads |= r.reads;
    return { outcomes: r.judgement.outcomes, entries: r.history.entries };
  };
  // Flags without reads (the search's own cell's): a loud or clean mark is not kept.
  if (flagsKnown !== undefined && !stored && !(flagsKnown & SILENT)) return markOf(flagsKnown, recorded, plan);
  let flags = flagsKnown;
  if (flags === undefined) {
    if (counts) counts.judged++;
    const judged = j.judged(plan, workload, schedule);
    reads |= judged.reads;
    flags = flagsOf(judged.judgement);
  }
  const mark = markOf(flags, recorded, plan);
  j.note(key, reads, factsOf(flags, bits, flags & SILENT ? mark.silent : undefined));
  return mark;
}

/** `runSearch`, pausing after every SEARCH_SLICE runs: a thread that also hands cells to the cell
 *  thread answers it between two slices, not after a whole search (the cell thread waited on it).
 *  Each run's mark as `markFor` gives it. */
export function* searchSteps(c: Combination, x: Omit<MitigationContext, 'cache'>, sampled?: Uint8Array): Generator<void, Searched> {
  const j = judgeOf(c, x);
  const marks: RunMark[] = [];
  try {
    for (const [i, input] of drawsOf(x).entries()) {
      if (i > 0 && i % SEARCH_SLICE === 0) yield;
      marks.push(markFor(j, input, x, sampled?.[i]));
    }
  } catch (e) {
    if (!(e instanceof PolicyError)) throw e;
    return 'policy-error';
  }
  return marks;
}

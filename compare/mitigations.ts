// The mitigation finder: for a silent finding, which single knob change makes it hold, and how. Each
// combination one knob value away (a guard added or removed counts as one) first replays the
// finding's own plan, workload and schedule, then runs a random search from the comparison's seed
// over the cell's alphabet; a change "holds" when the replay does not go silent and no searched run
// goes silent by the finding's mechanism (compare/causes.ts; a silent run of another mechanism is
// another cause, counted apart). How it holds is the cell class a designer chooses between: clean,
// loud and recovers, loud and never recovers.
//
// A search runs the changed combination as `searchedCombination` says: with what it never reaches at
// its defaults (`applicableCombination`), so that a change to the 2026-07-28 revision lands on the
// same search from every cell that differs only in session knobs, and runs it once; and with
// `client.reissue=idempotent-only` as `never` where the search draws no idempotent call.
import { NO_EXTENSIONS, PolicyError, withExtensions, type ModelExtensions } from '../models/registry.ts';
import {
  applicableCombination,
  CLIENT_KNOBS,
  combination as combinationIn,
  knobValues as knobValuesIn,
  SERVER_KNOBS,
  type Combination,
  type Guard,
} from '../models/policies.ts';
import type { FaultName } from '../models/faults.ts';
import type { Judgement } from '../properties/judge.ts';
import type { Property } from '../properties/properties.ts';
import { inputs, type InputShape } from '../search/random/arbitraries.ts';
import { Judge } from '../search/random/check.ts';
import { inputStream } from '../search/random/input-stream.ts';
import type { WorldOptions } from '../world/world.ts';
import type { FaultPlan } from '../core/plan.ts';
import type { Workload } from '../core/workload.ts';
import type { Finding } from './findings.ts';
import { causeOf } from './causes.ts';
import { internedMark, MitigationSearches, type RunMark, type Searched } from './mitigation-searches.ts';

/** How the agent's calls fared under a change: a cell class, or the change's own policy failing. */
export type Fared = 'clean' | 'loud, recovers' | 'loud, never recovers' | 'silent' | 'policy-error';

export interface Mitigation {
  /** `server.reinit=pin-first`, `client.guards+probe`, `client.guards-probe`. */
  change: string;
  /** The finding's own input on the changed combination. */
  replay: Fared;
  /** A random search on the changed combination (null when the replay already went silent): in how
   *  many runs the finding's mechanism came back (`sameCause`), how many went silent another way (a
   *  cause of its own, with a group of its own), and how the rest fared. */
  search: { runs: number; sameCause: number; otherSilent: number; fared: Fared } | null;
  /** The replay did not go silent, and the search never met the finding's mechanism again. */
  holds: boolean;
}

/** The properties the finder judges: outcomes come with any judgement; `recovers` tells stuck from healing. */
export const MITIGATION_PROPERTIES: readonly string[] = ['recovers'];

/** Random runs per changed combination at most (a cell's own --runs below it): as many as a default cell. */
export const MITIGATION_RUNS = 200;

const ORDER: Fared[] = ['clean', 'loud, recovers', 'loud, never recovers', 'policy-error', 'silent'];

/** What a run's judgement says for the finder, as bits: a call went silent, a call failed loudly, it did not recover. */
export const SILENT = 1;
export const LOUD = 2;
export const STUCK = 4;

/** A run's flags (SILENT | LOUD | STUCK) from its judgement. */
export function flagsOf(j: Judgement): number {
  let flags = 0;
  for (const o of j.outcomes) {
    if (o.outcome === 'silent-empty' || o.outcome === 'silent-hang') flags |= SILENT;
    else if (o.outcome === 'error') flags |= LOUD;
  }
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
  }
  return internedMark(silent, (flags & LOUD) !== 0, (flags & STUCK) !== 0);
}

/** `markOf` of a run judged as it went (its outcomes at hand, its history asked for if silent). */
function markOfJudged(j: Judgement, history: () => Finding['history'], plan: Finding['plan']): RunMark {
  return markOf(flagsOf(j), () => ({ outcomes: j.outcomes, entries: history() }), plan);
}

/** The cell class of some runs, leaving out those silent by another mechanism than `mechanism`. */
function faredOf(marks: readonly RunMark[], mechanism: string | null = null): Fared {
  const kept = marks.filter((m) => m.silent === null || mechanism === null || m.silent === mechanism);
  if (kept.some((m) => m.silent !== null)) return 'silent';
  if (!kept.some((m) => m.loud)) return 'clean';
  return kept.some((m) => m.stuck) ? 'loud, never recovers' : 'loud, recovers';
}

/** Every combination one knob value away from `c` (registered values in `ext` included), with the
 *  change's name, in knob order. */
export function neighbours(c: Combination, ext: ModelExtensions = NO_EXTENSIONS): { change: string; combination: Combination }[] {
  const out: { change: string; combination: Combination }[] = [];
  const knobValues = (side: 'server' | 'client', knob: string) => knobValuesIn(side, knob, ext);
  const combination = (over: Parameters<typeof combinationIn>[0]) => withExtensions(ext, () => combinationIn(over));
  for (const knob of Object.keys(SERVER_KNOBS) as (keyof Combination['server'])[]) {
    for (const v of knobValues('server', knob)) {
      if (v === c.server[knob]) continue;
      out.push({ change: `server.${knob}=${v}`, combination: combination({ server: { ...c.server, [knob]: v }, client: c.client }) });
    }
  }
  for (const knob of Object.keys(CLIENT_KNOBS) as (keyof Combination['client'])[]) {
    if (knob === 'guards') {
      for (const g of knobValues('client', 'guards') as Guard[]) {
        const has = c.client.guards.includes(g);
        const guards = has ? c.client.guards.filter((x) => x !== g) : [...c.client.guards, g];
        out.push({
          change: `client.guards${has ? '-' : '+'}${g}`,
          combination: combination({ server: c.server, client: { ...c.client, guards } }),
        });
      }
      continue;
    }
    for (const v of knobValues('client', knob)) {
      if (v === c.client[knob]) continue;
      out.push({ change: `client.${knob}=${v}`, combination: combination({ server: c.server, client: { ...c.client, [knob]: v } }) });
    }
  }
  return out;
}

export interface MitigationContext {
  seed: number;
  runs: number;
  properties: readonly Property[];
  faults: readonly FaultName[];
  shape: InputShape;
  /** The comparison's world options (its extensions among them): every run here uses them. */
  world?: Partial<WorldOptions>;
  /** Searches already run in this comparison, by combination, alphabet and shape (speed only). */
  cache: Map<string, RunMark[] | 'policy-error'>;
  /** The judges of this comparison's changed combinations, by combination: each computes a
   *  workload's fault-free reference once, for every alphabet and shape (speed only). */
  judges?: Map<string, Judge>;
  /** The inputs each alphabet and shape draws from the seed (the same for every combination searched under them). */
  draws?: Map<string, Drawn[]>;
}

type Drawn = [FaultPlan, Workload, number[]];

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
 * (test/compare/searched-combination.test.ts checks both, run by run).
 */
export function searchedCombination(changed: Combination, shape: InputShape): Combination {
  const c = applicableCombination(changed);
  if (c.client.reissue !== 'idempotent-only' || shape.workload?.idempotent) return c;
  return { server: c.server, client: { ...c.client, reissue: 'never' } };
}

/** The search's inputs: the first `runs` of the seed's sequence, drawn once per alphabet and shape. */
function drawsOf(x: Omit<MitigationContext, 'cache'>): Drawn[] {
  const n = searchRuns(x.runs);
  const key = JSON.stringify([x.faults, x.shape, x.seed, n]);
  let drawn = x.draws?.get(key);
  if (!drawn) {
    drawn = [...inputStream(inputs(searchShape(x.faults, x.shape)), x.seed, n)];
    x.draws?.set(key, drawn);
  }
  return drawn;
}

const JUDGES_KEPT = 256;

/** The finder's judge of `c`: outcomes and its properties, no vacuity stats. */
function judgeOf(c: Combination, x: Omit<MitigationContext, 'cache'>): Judge {
  const key = JSON.stringify(c);
  let j = x.judges?.get(key);
  if (!j) {
    j = new Judge(c, x.world ?? {}, x.properties, false);
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
export const SEARCH_SLICE = 10;

/** `runSearch`, pausing after every SEARCH_SLICE runs: a thread that also hands cells to the cell
 *  thread answers it between two slices, not after a whole search (the cell thread waited on it). */
export function* searchSteps(c: Combination, x: Omit<MitigationContext, 'cache'>, sampled?: Uint8Array): Generator<void, Searched> {
  const j = judgeOf(c, x);
  const marks: RunMark[] = [];
  try {
    for (const [i, [plan, workload, schedule]] of drawsOf(x).entries()) {
      if (i > 0 && i % SEARCH_SLICE === 0) yield;
      const recorded = () => {
        const { judgement, history } = j.recorded(plan, workload, schedule);
        return { outcomes: judgement.outcomes, entries: history.entries };
      };
      if (sampled) marks.push(markOf(sampled[i]!, recorded, plan));
      else marks.push(markOfJudged(j.judged(plan, workload, schedule).judgement, () => recorded().entries, plan));
    }
  } catch (e) {
    if (!(e instanceof PolicyError)) throw e;
    return 'policy-error';
  }
  return marks;
}

function searchMarks(changed: Combination, x: MitigationContext): Searched {
  const c = searchedCombination(changed, x.shape);
  const key = MitigationSearches.keyOf({ combination: c, faults: x.faults, shape: x.shape });
  const hit = x.cache.get(key);
  if (hit) return hit;
  const marks = runSearch(c, x);
  x.cache.set(key, marks);
  return marks;
}

function replay(f: Finding, c: Combination, x: Omit<MitigationContext, 'cache'>): Fared {
  try {
    const j = judgeOf(c, x);
    const { judgement } = j.judged(f.plan, f.workload, f.schedule);
    return faredOf([markOfJudged(judgement, () => j.history(f.plan, f.workload, f.schedule).entries, f.plan)]);
  } catch (e) {
    if (e instanceof PolicyError) return 'policy-error';
    throw e;
  }
}

export function isSilentFinding(f: Finding): boolean {
  return f.kind === 'violation' && f.outcomes.some((o) => o.outcome === 'silent-empty' || o.outcome === 'silent-hang');
}

interface Tried {
  change: string;
  combination: Combination;
  replay: Fared;
}

/** Each neighbour with its replay of the finding's own input; a search only where it did not go silent. */
function replays(f: Finding, x: Omit<MitigationContext, 'cache'>): Tried[] {
  return neighbours(f.combination, x.world?.extensions).map(({ change, combination: c }) => ({
    change,
    combination: c,
    replay: replay(f, c, x),
  }));
}

const searched = (t: Tried) => t.replay !== 'silent' && t.replay !== 'policy-error';

/** The mitigations from the replays and the searches (null where none ran), ranked: those that hold
 *  first (cleanest first), then the rest. */
function ranked(f: Finding, tried: readonly Tried[], marksOf: readonly (Searched | null)[]): Mitigation[] {
  const mechanism = causeOf(f).mechanism;
  const all = tried.map(({ change, replay: r }, i): Mitigation => {
    const marks = marksOf[i];
    if (!marks) return { change, replay: r, search: null, holds: false };
    if (marks === 'policy-error')
      return { change, replay: r, search: { runs: 0, sameCause: 0, otherSilent: 0, fared: 'policy-error' }, holds: false };
    const sameCause = marks.filter((m) => m.silent === mechanism).length;
    const otherSilent = marks.filter((m) => m.silent !== null && m.silent !== mechanism).length;
    const fared = faredOf(marks, mechanism);
    return { change, replay: r, search: { runs: marks.length, sameCause, otherSilent, fared }, holds: sameCause === 0 };
  });
  const worst = (m: Mitigation) => Math.max(ORDER.indexOf(m.replay), ORDER.indexOf(m.search?.fared ?? m.replay));
  const rank = (m: Mitigation) => (m.holds ? worst(m) : 10 + ORDER.indexOf(m.replay));
  return all
    .map((m, i) => ({ m, i }))
    .sort((a, b) => rank(a.m) - rank(b.m) || a.i - b.i)
    .map(({ m }) => m);
}

/** The single changes tried for a silent finding: those that hold first (cleanest first), then the rest. */
export function mitigationsOf(f: Finding, x: MitigationContext): Mitigation[] {
  const tried = replays(f, x);
  return ranked(
    f,
    tried,
    tried.map((t) => (searched(t) ? searchMarks(t.combination, x) : null)),
  );
}

/** `mitigationsOf` with its searches asked of a comparison's queue (run once each, wherever an
 *  executor is free); the replays run here, at once. */
export async function findMitigations(
  f: Finding,
  x: Omit<MitigationContext, 'cache'>,
  searches: MitigationSearches,
): Promise<Mitigation[]> {
  const tried = replays(f, x);
  const marks = await Promise.all(
    tried.map((t) =>
      searched(t) ? searches.search({ combination: searchedCombination(t.combination, x.shape), faults: x.faults, shape: x.shape }) : null,
    ),
  );
  return ranked(f, tried, marks);
}

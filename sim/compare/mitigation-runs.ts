// The mitigation finder's runs (compare/mitigations.ts): what a search draws, which combination it
// runs (`searchedCombination`), and how each run is marked for the finder (silent by which mechanism,
// loud, stuck), judged as it goes, its history recorded only for a silent run.
//
// A search runs the changed combination as `searchedCombination` says: with what it never reaches at
// its defaults (`applicableCombination`), so that a change to the 2026-07-28 revision lands on the
// same search from every cell that differs only in session knobs, and runs it once; and with
// `client.reissue=idempotent-only` as `never` where the search draws no idempotent call.
import { PolicyError } from '../../models/registry.ts';
import { applicableCombination, type Combination } from '../../models/policies.ts';
import type { FaultName } from '../../models/faults.ts';
import type { Judgement } from '../../properties/judge.ts';
import type { Property } from '../../properties/properties.ts';
import { inputs, shapeKey, type InputShape } from '../search/random/arbitraries.ts';
import { checkShape, Judge } from '../search/random/check.ts';
import { inputStream } from '../search/random/input-stream.ts';
import { readsDuring, trackable } from '../search/random/read-set.ts';
import { valuesInOf } from '../search/random/read-set-memo.ts';
import type { WorldOptions } from '../world/world.ts';
import type { FaultPlan } from '../core/plan.ts';
import type { Workload } from '../core/workload.ts';
import type { Finding } from './findings.ts';
import { causeOf } from './causes.ts';
import { MarkMemo } from './mitigation-memo.ts';
import { internedMark, type RunMark, type Searched } from './mitigation-searches.ts';

/** Random runs per changed combination at most (a cell's own --runs below it): as many as a default cell. */
export const MITIGATION_RUNS = 200;

/** What a run's judgement says for the finder, as bits: a call went silent, a call failed loudly, it did not recover. */
const SILENT = 1;
const LOUD = 2;
const STUCK = 4;

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
export function markOfJudged(j: Judgement, history: () => Finding['history'], plan: Finding['plan']): RunMark {
  return markOf(flagsOf(j), () => ({ outcomes: j.outcomes, entries: history() }), plan);
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
 * (test/sim/compare/searched-combination.test.ts checks both, run by run).
 */
export function searchedCombination(changed: Combination, shape: InputShape): Combination {
  const c = applicableCombination(changed);
  if (c.client.reissue !== 'idempotent-only' || shape.workload?.idempotent) return c;
  return { server: c.server, client: { ...c.client, reissue: 'never' } };
}

/** The search's inputs: the first `runs` of the seed's sequence, drawn once per alphabet and shape. */
export function drawsOf(x: Omit<MitigationContext, 'cache'>): Drawn[] {
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

/** The finder's judge of `c`: outcomes and its properties, no vacuity stats; its runs' knob reads
 *  tracked (read-set.ts), for the memo of marks. */
export function judgeOf(c: Combination, x: Omit<MitigationContext, 'cache'>): Judge {
  const key = JSON.stringify(c);
  let j = x.judges?.get(key);
  if (!j) {
    j = new Judge(c, x.world ?? {}, x.properties, false, trackable(c));
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

/** The runs of each sequence of draws, remembered with their reads (mitigation-memo.ts). The draws
 *  of one context are one comparison's (its properties and world): so are their runs. */
const memos = new WeakMap<Drawn[], MarkMemo>();

function memoOf(drawn: Drawn[]): MarkMemo {
  let memo = memos.get(drawn);
  if (!memo) memos.set(drawn, (memo = new MarkMemo()));
  return memo;
}

/** This thread's search runs: how many marks were asked for, how many runs were judged here (the
 *  rest a remembered run or a cell's flags answered), how many recorded here (a silent run's mechanism). */
export const finderRunCounts = { asked: 0, judged: 0, recorded: 0 };

/** A cell of combination `c` ran the context's draws first: the flags of those runs and the knobs
 *  each read (compare.ts `checkCell`), for the searches' runs that read the same. */
export function rememberRuns(c: Combination, x: Omit<MitigationContext, 'cache'>, flags: Uint8Array, reads: Uint16Array): void {
  // Only a cell that drew the search's inputs (`check` adds idempotent calls for a client that tells them apart).
  if (!trackable(c) || shapeKey(checkShape(c, x.faults, x.shape)) !== shapeKey(searchShape(x.faults, x.shape))) return;
  const drawn = drawsOf(x);
  if (drawn.length !== flags.length) return;
  const memo = memoOf(drawn);
  const valuesIn = valuesInOf(c);
  for (let i = 0; i < flags.length; i++) memo.add(i, reads[i]!, valuesIn, { flags: flags[i]!, mark: null });
}

/** `runSearch`, pausing after every SEARCH_SLICE runs: a thread that also hands cells to the cell
 *  thread answers it between two slices, not after a whole search (the cell thread waited on it).
 *  A run that a remembered run of the same input answers (it read only knobs on which the two
 *  combinations agree: mitigation-memo.ts) is not run; where only its flags are known (a cell's
 *  run), a silent one is run again, recorded, for its mechanism, as a cell's sampled flags are. */
export function* searchSteps(c: Combination, x: Omit<MitigationContext, 'cache'>, sampled?: Uint8Array): Generator<void, Searched> {
  const j = judgeOf(c, x);
  const drawn = drawsOf(x);
  const memo = j.tracksReads ? memoOf(drawn) : undefined;
  const valuesIn = valuesInOf(c);
  const marks: RunMark[] = [];
  try {
    for (const [i, [plan, workload, schedule]] of drawn.entries()) {
      if (i > 0 && i % SEARCH_SLICE === 0) yield;
      finderRunCounts.asked++;
      const known = memo?.find(i, valuesIn);
      if (known?.mark) {
        marks.push(known.mark);
        continue;
      }
      const recorded = () => {
        finderRunCounts.recorded++;
        const { judgement, history } = j.recorded(plan, workload, schedule);
        return { outcomes: judgement.outcomes, entries: history.entries };
      };
      const given = known?.flags ?? sampled?.[i];
      // Flags without reads (the search's own cell's): a mark not remembered unless recorded here.
      if (given !== undefined && !(given & SILENT)) {
        marks.push(markOf(given, recorded, plan));
        continue;
      }
      const [[flags, mark], reads] = readsDuring((): [number, RunMark] => {
        if (given === undefined) finderRunCounts.judged++;
        const f = given ?? flagsOf(j.judged(plan, workload, schedule).judgement);
        return [f, markOf(f, recorded, plan)];
      });
      memo?.add(i, reads, valuesIn, { flags, mark });
      marks.push(mark);
    }
  } catch (e) {
    if (!(e instanceof PolicyError)) throw e;
    return 'policy-error';
  }
  return marks;
}

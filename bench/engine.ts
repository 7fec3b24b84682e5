// Simulated sessions per second on a fixed session of the record-000 cell, in CPU time of this
// process (process.cpuUsage: on a loaded machine wall time counts other people's work): the engine
// (the compiled statecharts, history recorded), then judged by every property from that history (what
// `check` paid per run before its runs went history-free), the same world with history recording off
// judged as a history-free `check` run is (entries into the property folds, the outcomes and the stats
// as they come, bench/judged-world.ts), a minimal mutable reducer of the cell that
// records nothing (bench/minimal-reducer.ts, independent of the world: the floor), and XState's own
// transition() for reference. Rounds interleave them so that drift falls on all alike; each figure
// is the median of its rounds, each ratio is of medians of the same run. Then the bytes each session
// allocates (garbage and all: V8's sampling heap profiler, counting what the collector has freed
// too): issue 40 asks for a session that allocates nothing once warm, as the floor does.
import { VULNERABLE_000 } from '../sim/core/cells.ts';
import { describePlan, type FaultPlan } from '../sim/core/plan.ts';
import { call, describeWorkload } from '../sim/core/workload.ts';
import { judge as judgeHistory } from '../properties/judge.ts';
import { referenceOf } from '../properties/outcomes.ts';
import { DEFAULT_WORLD, runWorld } from '../sim/world/world.ts';
import { fileURLToPath } from 'node:url';
import { allocationsPerCall, bytesPerCall } from './allocations.ts';
import { PartSums, type PartShare } from './code-parts.ts';
import { FoldedJudge } from './judged-world.ts';
import { median, note, round } from './measure.ts';
import { MinimalSession } from './minimal-reducer.ts';

/** Four calls, two asking for progress; the record-000 plan makes the client reconnect and replay. */
export const SESSION = {
  combination: VULNERABLE_000,
  workload: [call(), call(true), call(), call(true)],
  plan: [
    { fault: 'config-reset', at: 0 },
    { fault: 'http-502', at: 4 },
  ] as FaultPlan,
};

export interface EngineFigures {
  workload: string;
  plan: string;
  rounds: number;
  sessionsPerRound: number;
  clock: 'cpu';
  /** What ran: the compiled dist/ the CLI runs, or the sources through tsx (dist/ stale: bench/compiled-code.mjs). */
  code: 'dist' | 'source';
  /** Events the world's queue processes in one session; the minimal reducer's own count beside it. */
  eventsPerSession: number;
  minimalEventsPerSession: number;
  sessionsPerSecond: number;
  /** The engine's run judged by every property from its history, as `check` does per run. */
  judgedSessionsPerSecond: number;
  historyOffSessionsPerSecond: number;
  minimalSessionsPerSecond: number;
  xstateSessionsPerSecond: number;
  /** Microseconds per simulated event: the world's sessions over its events, the reducer over its own. */
  microsecondsPerEvent: { engine: number; judged: number; historyOff: number; minimal: number; xstate: number };
  /** Each over the engine (sessions/s): above 1 is faster than the engine. */
  judgedToEngine: number;
  historyOffToEngine: number;
  /** History off over the engine judged from history: what dropping the history buys a judged run. */
  historyOffToJudged: number;
  minimalToEngine: number;
  xstateToEngine: number;
  /** The minimal reducer over the history-off world: the target is ≤ 2. */
  minimalToHistoryOff: number;
  /** Bytes allocated per session once warm (every allocation, freed or not), by variant. */
  bytesPerSession: { engine: number; historyOff: number; minimal: number };
  /** The history-off session's bytes by the part of the code that allocated them (bench/code-parts.ts;
   *  `amount`: bytes per session), from the same profile as `bytesPerSession.historyOff`. */
  historyOffBytesByPart: PartShare[];
}

/** CPU milliseconds (user + system) of this process while `f` runs. */
function cpuMs(f: () => void): number {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const judge = new FoldedJudge(SESSION);
const reference = referenceOf(runWorld({ ...SESSION, plan: [] }, DEFAULT_WORLD));
const VARIANTS = {
  engine: () => runWorld(SESSION, DEFAULT_WORLD),
  judged: () => judgeHistory(runWorld(SESSION, DEFAULT_WORLD), reference),
  historyOff: () => judge.run(SESSION.plan),
  minimal: () => new MinimalSession(SESSION.workload, SESSION.plan).run(),
  xstate: () => runWorld(SESSION, { ...DEFAULT_WORLD, engine: 'xstate' }),
};
type Variant = keyof typeof VARIANTS;

function rate(variant: Variant, sessions: number): number {
  const f = VARIANTS[variant];
  return (
    (sessions /
      Math.max(
        cpuMs(() => {
          for (let i = 0; i < sessions; i++) f();
        }),
        1e-3,
      )) *
    1000
  );
}

export function measureEngine(quick: boolean): EngineFigures {
  const rounds = quick ? 3 : 7;
  const sessions = quick ? 5_000 : 20_000;
  // Each variant runs about as long per round as the engine does.
  const per: Record<Variant, number> = {
    engine: sessions,
    judged: sessions,
    historyOff: sessions,
    minimal: sessions * 20,
    xstate: quick ? 300 : 1_500,
  };
  for (const v of Object.keys(VARIANTS) as Variant[]) rate(v, Math.ceil(per[v] / 10)); // warm up each once
  const figures: Record<Variant, number[]> = { engine: [], judged: [], historyOff: [], minimal: [], xstate: [] };
  for (let r = 0; r < rounds; r++) {
    note(`engine: round ${r + 1}/${rounds}`);
    for (const v of Object.keys(VARIANTS) as Variant[]) figures[v].push(rate(v, per[v]));
  }
  const m = {
    engine: median(figures.engine),
    judged: median(figures.judged),
    historyOff: median(figures.historyOff),
    minimal: median(figures.minimal),
    xstate: median(figures.xstate),
  };
  note('engine: bytes allocated per session');
  const allocations = quick ? 2_000 : 10_000;
  const byPart = new PartSums(root);
  const historyOff = allocationsPerCall(VARIANTS.historyOff, allocations, (frame, bytes) => byPart.add(frame, bytes));
  const bytesPerSession = {
    engine: round(bytesPerCall(VARIANTS.engine, allocations)),
    historyOff: round(historyOff),
    minimal: round(bytesPerCall(VARIANTS.minimal, allocations * 20)),
  };
  judge.run(SESSION.plan);
  const events = judge.steps;
  const minimalEvents = new MinimalSession(SESSION.workload, SESSION.plan);
  minimalEvents.run();
  const us = (perSecond: number, n: number) => round(1e6 / perSecond / n, 3);
  return {
    workload: describeWorkload(SESSION.workload),
    plan: describePlan(SESSION.plan),
    rounds,
    sessionsPerRound: sessions,
    clock: 'cpu',
    code: process.env.BENCH_CODE === 'dist' ? 'dist' : 'source',
    eventsPerSession: events,
    minimalEventsPerSession: minimalEvents.events,
    sessionsPerSecond: round(m.engine),
    judgedSessionsPerSecond: round(m.judged),
    historyOffSessionsPerSecond: round(m.historyOff),
    minimalSessionsPerSecond: round(m.minimal),
    xstateSessionsPerSecond: round(m.xstate),
    microsecondsPerEvent: {
      engine: us(m.engine, events),
      judged: us(m.judged, events),
      historyOff: us(m.historyOff, events),
      minimal: us(m.minimal, minimalEvents.events),
      xstate: us(m.xstate, events),
    },
    judgedToEngine: round(m.judged / m.engine, 2),
    historyOffToEngine: round(m.historyOff / m.engine, 2),
    historyOffToJudged: round(m.historyOff / m.judged, 2),
    minimalToEngine: round(m.minimal / m.engine, 1),
    xstateToEngine: round(m.xstate / m.engine, 3),
    minimalToHistoryOff: round(m.minimal / m.historyOff, 1),
    bytesPerSession,
    historyOffBytesByPart: byPart.shares(true),
  };
}

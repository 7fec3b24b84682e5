// Simulated sessions per second on a fixed workload: the engine (the compiled statecharts), the
// hand-written reducer of the same logic (bench/hand-stepper.ts, the practical limit), and XState's
// own transition() for reference. Rounds interleave the engines so that the machine's load, which
// drifts, falls on all of them alike; each figure is the median of its rounds.
import { VULNERABLE_000 } from '../core/cells.ts';
import { describePlan, type FaultPlan } from '../core/plan.ts';
import { call, describeWorkload } from '../core/workload.ts';
import { runWorld, type WorldOptions } from '../world/world.ts';
import { handEngine } from './hand-stepper.ts';
import { median, note, round, time } from './measure.ts';

/** Four calls, two asking for progress; the seed-000 plan makes the client reconnect and replay. */
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
  sessionsPerSecond: number;
  reducerSessionsPerSecond: number;
  xstateSessionsPerSecond: number;
  /** Engine over reducer, medians of the same rounds: 1 means the engine is at the practical limit. */
  engineToReducer: number;
  engineToXstate: number;
}

function rate(sessions: number, engine: WorldOptions['engine']): number {
  const ms = time(() => {
    for (let i = 0; i < sessions; i++) runWorld(SESSION, { engine });
  });
  return (sessions / ms) * 1000;
}

export function measureEngine(quick: boolean): EngineFigures {
  const rounds = quick ? 3 : 7;
  const sessions = quick ? 5_000 : 20_000;
  const xstateSessions = quick ? 300 : 1_500;
  rate(2_000, 'compiled'); // warm up every engine once
  rate(2_000, handEngine);
  rate(100, 'xstate');
  const compiled: number[] = [];
  const hand: number[] = [];
  const xstate: number[] = [];
  for (let r = 0; r < rounds; r++) {
    note(`engine: round ${r + 1}/${rounds}`);
    compiled.push(rate(sessions, 'compiled'));
    hand.push(rate(sessions, handEngine));
    xstate.push(rate(xstateSessions, 'xstate'));
  }
  const c = median(compiled);
  const h = median(hand);
  const x = median(xstate);
  return {
    workload: describeWorkload(SESSION.workload),
    plan: describePlan(SESSION.plan),
    rounds,
    sessionsPerRound: sessions,
    sessionsPerSecond: round(c),
    reducerSessionsPerSecond: round(h),
    xstateSessionsPerSecond: round(x),
    engineToReducer: round(c / h, 2),
    engineToXstate: round(c / x, 1),
  };
}

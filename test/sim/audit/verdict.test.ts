// The verdict order over the oracles' judgement: silent beats stuck beats loud beats pass, and a
// spec answer the server did not give (expectStatus) is silent. Judgements are built by hand here:
// the in-process audits (audit.test.ts) reach pass, loud, silent and n/a; no server in reach is stuck.
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../../../sim/audit/scenarios.ts';
import { verdictOf } from '../../../sim/audit/verdict.ts';
import type { History } from '../../../sim/core/history.ts';
import type { Judgement } from '../../../properties/judge.ts';
import type { CallOutcome, Outcome } from '../../../properties/outcomes.ts';

const scenario = SCENARIOS.find((s) => s.name === 'unknown-session')!;
const holds = { holds: true, reached: true };
const outcome = (callId: number, o: Outcome): CallOutcome => ({
  callId,
  outcome: o,
  invokedAt: 0,
  endedAt: 1,
  end: { t: 1, kind: 'end', callId, attempts: 1, req: 2, end: 'error', reason: 'x' },
});
const judgement = (outcomes: Outcome[], broken: Record<string, string> = {}): Judgement => ({
  outcomes: outcomes.map((o, i) => outcome(i, o)),
  verdicts: Object.fromEntries(scenario.judgedBy.map((p) => [p, p in broken ? { holds: false, reached: true, why: broken[p]! } : holds])),
});
const history = (status: number): History =>
  ({
    entries: [
      { t: 0, kind: 'fault', fault: 'session-expire', at: 3, applied: true, detail: '' },
      {
        t: 1,
        kind: 'response',
        req: 3,
        status,
        contentType: 'application/json',
        sessionId: null,
        body: 'json',
        deliverAt: 2,
        from: 'server',
      },
    ],
  }) as unknown as History;

describe('verdictOf', () => {
  it('pass, loud, stuck, silent in that order of precedence', () => {
    expect(verdictOf(scenario, judgement(['ok', 'ok']), history(404)).verdict).toBe('pass');
    expect(verdictOf(scenario, judgement(['ok', 'error', 'ok']), history(404)).verdict).toBe('loud');
    expect(verdictOf(scenario, judgement(['ok', 'error', 'error'], { recovers: 'never ok again' }), history(404))).toEqual({
      verdict: 'stuck',
      why: 'recovers: never ok again',
    });
    expect(verdictOf(scenario, judgement(['ok', 'silent-hang'], { recovers: 'r' }), history(404)).verdict).toBe('silent');
  });

  it('a missing spec answer (200 where 404 is due) is silent, with what came instead', () => {
    expect(verdictOf(scenario, judgement(['ok', 'ok']), history(200))).toEqual({
      verdict: 'silent',
      why: 'expected HTTP 404 to the faulted request, got 200 (accepted without a signal)',
    });
  });

  it('another error status (400 where 404 is due) is still a signal: the spec lens judges it, not the resilience verdict', () => {
    expect(verdictOf(scenario, judgement(['ok', 'ok']), history(400)).verdict).toBe('pass');
  });
});

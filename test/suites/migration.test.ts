// The 2026-07-28 revision beside 2025-11-25: what the migration does to each record's vulnerable
// cell and its "does not apply" cells, and what at-most-once says for every client.reissue value in
// both revisions. Findings by their shrunk plans; what holds, randomly and exhaustively, and reached.
import { describe, expect, it } from 'vitest';
import {
  ALPHABET_000,
  ALPHABET_003,
  DOES_NOT_APPLY_000,
  DOES_NOT_APPLY_003,
  VULNERABLE_000,
  VULNERABLE_003,
} from '../../sim/core/cells.ts';
import { call, type Workload } from '../../sim/core/workload.ts';
import { combination, type ClientProtocol, type Combination, type ReissuePolicy, type ServerProtocol } from '../../models/policies.ts';
import { runWorld } from '../../sim/world/world.ts';
import { exhaust, result, smallWorkloads } from './helpers.ts';
import { NO_ADDITIONS } from '../../models/additions.ts';
import { DEFAULT_WORLD } from '../../sim/world/world.ts';

const SEQUENTIAL = { workload: { overlap: false } };
const PROGRESS = { workload: { overlap: false, progress: 'always' as const } };

function under(c: Combination, server: ServerProtocol, client: ClientProtocol, over: Partial<Combination['client']> = {}): Combination {
  return combination({ server: { ...c.server, protocol: server }, client: { ...c.client, ...over, protocol: client } }, NO_ADDITIONS);
}
const modern = (c: Combination, over: Partial<Combination['client']> = {}) => under(c, '2026-07-28', '2026-07-28', over);

describe('migration, record 000: capabilities travel with every request', () => {
  it('keeps the vulnerable cell silent, now on one fault: a config reset alone (no 502, no re-initialize)', () => {
    const r = result(modern(VULNERABLE_000), 'no-silent-empty', { faults: ALPHABET_000, shape: SEQUENTIAL });
    expect(r.verdict).toBe('violated');
    expect(r.counterexample!.faults).toEqual([{ fault: 'config-reset', at: 0 }]);
    expect(r.counterexample!.workload).toEqual([call(), call()]);
    expect(r.counterexample!.outcomes).toEqual([
      { callId: 0, outcome: 'ok' },
      { callId: 1, outcome: 'silent-empty' },
    ]);
    expect(r.minimal).toBe(true);
  });

  it('is the same behind negotiate × dual, one request later (server/discover goes first)', () => {
    const r = result(under(VULNERABLE_000, 'dual', 'negotiate'), 'no-silent-empty', { faults: ALPHABET_000, shape: SEQUENTIAL });
    expect(r.counterexample!.faults).toEqual([{ fault: 'config-reset', at: 1 }]);
    expect(r.counterexample!.workload).toEqual([call(), call()]);
  });

  const sessionMitigations = DOES_NOT_APPLY_000.filter((c) => /reinit|reconnect|compare-init/.test(c.name));
  for (const cell of sessionMitigations) {
    it(`${cell.name}: no longer protects, since there is no session to pin or re-initialize (added)`, () => {
      const r = result(modern(cell.combination), 'no-silent-empty', { faults: ALPHABET_000, shape: SEQUENTIAL });
      expect(r.verdict).toBe('violated');
      expect(r.counterexample!.faults).toEqual([{ fault: 'config-reset', at: 0 }]);
    });
  }

  it('still holds where streaming follows an Accept the client always sends, exhaustively to depth 3 and reached', () => {
    const cell = DOES_NOT_APPLY_000.find((c) => c.name.startsWith('server.streaming=accept-header'))!;
    const proof = exhaust(modern(cell.combination), 'no-silent-empty', ALPHABET_000, smallWorkloads(false), 3);
    expect(proof.reached).toBeGreaterThan(proof.runs / 4);
  });

  it('the content-type guard turns it loud, but its retry of an executed call runs the tool twice', () => {
    const cell = DOES_NOT_APPLY_000.find((c) => c.name === 'client.guards=content-type')!;
    expect(result(modern(cell.combination), 'no-silent-empty', { faults: ALPHABET_000, shape: SEQUENTIAL }).verdict).toBe('holds');
    const dup = result(modern(cell.combination), 'at-most-once', { faults: ALPHABET_000, shape: SEQUENTIAL });
    expect(dup.counterexample!.faults).toEqual([{ fault: 'config-reset', at: 0 }]);
  });

  it('needs the reset: 502s alone never make it silent, exhaustively to depth 3', () => {
    const proof = exhaust(modern(VULNERABLE_000), 'no-silent-empty', ['http-502'], smallWorkloads(false), 3);
    expect(proof.reached).toBeGreaterThan(0);
  });
});

describe('migration, record 003: no transport fallback in 2026-07-28', () => {
  it('removes the hang: the vulnerable cell holds under its alphabet, exhaustively to depth 3 and reached', () => {
    expect(result(modern(VULNERABLE_003), 'no-silent-hang', { faults: ALPHABET_003, shape: PROGRESS }).verdict).toBe('holds');
    const proof = exhaust(modern(VULNERABLE_003), 'no-silent-hang', ALPHABET_003, smallWorkloads(true), 3);
    expect(proof.reached).toBeGreaterThan(proof.runs / 4);
  });

  for (const cell of DOES_NOT_APPLY_003) {
    it(`${cell.name}: holds as before`, () => {
      expect(result(modern(cell.combination), 'no-silent-hang', { faults: ALPHABET_003, shape: PROGRESS }).verdict).toBe('holds');
    });
  }

  it('while a 2025-11-25 server keeps it for a legacy client (the pair a migration starts from)', () => {
    const r = result(VULNERABLE_003, 'no-silent-hang', { faults: ALPHABET_003, shape: PROGRESS });
    expect(r.counterexample!.faults).toEqual([{ fault: 'strip-header:transfer-encoding', at: 0 }]);
  });
});

describe('at-most-once, for every client.reissue value in both revisions', () => {
  const FAULTS = ['stream-cut', 'http-502'];
  const adaptive = (revision: '2025-11-25' | '2026-07-28', reissue: ReissuePolicy) =>
    combination({ server: { protocol: revision }, client: { parser: 'adaptive', protocol: revision, reissue } }, NO_ADDITIONS);
  const mixed: Workload[] = [[call()], [call(), call(false, false, true)], [call(false, false, true), call()]];

  it('always: a cut stream the server was not told about makes the re-sent call run twice, silently (2026-07-28)', () => {
    const r = result(adaptive('2026-07-28', 'always'), 'at-most-once', { faults: FAULTS, shape: SEQUENTIAL });
    expect(r.counterexample!.faults).toEqual([{ fault: 'stream-cut', at: 0 }]);
    expect(r.counterexample!.workload).toEqual([call()]);
    expect(r.counterexample!.outcomes).toEqual([{ callId: 0, outcome: 'ok' }]);
  });

  it('always: the legacy retry-once after the deadline does the same (2025-11-25)', () => {
    const r = result(adaptive('2025-11-25', 'always'), 'at-most-once', { faults: FAULTS, shape: SEQUENTIAL });
    expect(r.counterexample!.faults).toEqual([{ fault: 'stream-cut', at: 2 }]);
    expect(r.counterexample!.workload).toEqual([call()]);
  });

  for (const revision of ['2025-11-25', '2026-07-28'] as const) {
    for (const reissue of ['idempotent-only', 'never'] as const) {
      it(`${reissue} holds under ${revision}, randomly and exhaustively to depth 2, and was reached`, () => {
        const c = adaptive(revision, reissue);
        const r = result(c, 'at-most-once', { faults: FAULTS, shape: SEQUENTIAL });
        expect(r.verdict).toBe('holds');
        expect(r.reached).toBeGreaterThan(10);
        const proof = exhaust(c, 'at-most-once', FAULTS, mixed, 2, 6);
        expect(proof.reached).toBeGreaterThan(0);
      });
    }
  }

  it('idempotent-only re-issues an idempotent call after a cut stream and fails a side-effecting one loudly', () => {
    const c = adaptive('2026-07-28', 'idempotent-only');
    const endOf = (workload: Workload) =>
      runWorld({ combination: c, workload, plan: [{ fault: 'stream-cut', at: 0 }] }, DEFAULT_WORLD).entries.find((e) => e.kind === 'end');
    expect(endOf([call(false, false, true)])).toMatchObject({
      end: 'result',
      attempts: 2,
      content: [{ type: 'text', text: 'lookup result for call 0' }],
    });
    expect(endOf([call()])).toMatchObject({
      end: 'error',
      attempts: 1,
      reason: 'response stream ended before its result (not re-issued: client.reissue=idempotent-only)',
    });
  });
});

describe('mixed pairs', () => {
  it('a 2026-07-28 client and a 2025-11-25 server: every call fails loudly, none silently', () => {
    const c = under(VULNERABLE_000, '2025-11-25', '2026-07-28');
    expect(result(c, 'no-silent-empty', { faults: ALPHABET_000, shape: SEQUENTIAL }).verdict).not.toBe('violated');
    expect(result(c, 'recovers', { faults: ALPHABET_000, shape: SEQUENTIAL }).verdict).toBe('violated');
  });

  it('a 2025-11-25 client and a 2026-07-28 server: initialize is refused, loud', () => {
    const c = under(VULNERABLE_000, '2026-07-28', '2025-11-25');
    expect(result(c, 'no-silent-empty', { faults: ALPHABET_000, shape: SEQUENTIAL }).verdict).not.toBe('violated');
    expect(result(c, 'recovers', { faults: ALPHABET_000, shape: SEQUENTIAL }).verdict).toBe('violated');
  });
});

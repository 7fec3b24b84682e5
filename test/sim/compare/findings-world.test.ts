// A finding keeps the world options it was found with: its history is the run under those options
// (not a re-run under DEFAULT_WORLD), its counterexample file records them, and replay uses them.
// Seed 003's silent hang ends at the client's deadline, so a shorter deadline changes its history.
// The history is run again from the input when read, not held (compare/findings.ts): every read, and
// every report written from it, sees the same history.
import { describe, expect, it } from 'vitest';
import { ALPHABET_003, VULNERABLE_003 } from '../../../sim/core/cells.ts';
import { runComparison, singleCell } from '../../../sim/compare/compare.ts';
import { HELD_HISTORIES, recomputedHistory } from '../../../sim/compare/findings.ts';
import { counterexampleFile } from '../../../sim/corpus/counterexample-file.ts';
import { parseCounterexample } from '../../../sim/corpus/counterexample-parse.ts';
import { renderJson } from '../../../reports/compare-json.ts';
import { replay } from '../../../sim/corpus/replay.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { DEFAULT_WORLD, runWorld } from '../../../sim/world/world.ts';
import { EMPTY_REGISTRY } from '../../../sim/plugins/loaded.ts';
import { runConfig } from '../../../sim/plugins/run-config.ts';

const SHORT = { ...DEFAULT_WORLD, deadlineMs: 20_000 };
const cell = { ...singleCell(VULNERABLE_003, ALPHABET_003), shape: { workload: { overlap: false, progress: 'always' as const } } };
const matrix = { cells: [cell], kind: 'records' as const, cut: { server: {}, client: {} }, size: 1 };
const options = { seed: 1, runs: 60, properties: PROPERTIES };

describe('findings carry their world options and history', async () => {
  const comparison = await runComparison(matrix, runConfig({ ...options, world: { deadlineMs: 20_000 } }));
  const finding = comparison.findings.find((f) => f.properties.some((p) => p.property === 'no-silent-hang'))!;
  const input = { combination: VULNERABLE_003, workload: finding.workload, plan: finding.plan, schedule: finding.schedule };

  it('the finding records the options and the history of its own run', () => {
    expect(finding.world).toEqual({ latencyMs: DEFAULT_WORLD.latencyMs, deadlineMs: 20_000, stepBudget: DEFAULT_WORLD.stepBudget });
    expect(finding.history).toEqual(runWorld(input, SHORT).entries);
    // Two attempts, each ended by the 20 s deadline (the default's 30 s would end them at 60 s).
    const deadline = finding.history.find((e) => e.kind === 'end' && e.end === 'deadline');
    expect(deadline).toMatchObject({ attempts: 2 });
    expect(deadline!.t).toBeGreaterThanOrEqual(40_000);
    expect(deadline!.t).toBeLessThan(60_000);
  });

  it('is not held by the finding but run again when read, the same every time', () => {
    const held = Object.getOwnPropertyDescriptor(finding, 'history')!;
    expect(held.get).toBeTypeOf('function'); // an accessor on the reported finding (the annotated copy kept it)
    expect(held.value).toBeUndefined();
    expect(held.enumerable).toBe(true); // so JSON (a shard's compare.json, a counterexample file) has it
    const first = finding.history;
    expect(JSON.parse(JSON.stringify(finding)).history).toEqual(first);
    expect(Object.keys(finding).at(-1)).toBe('history'); // where the reports' JSON has always had it
  });

  it('is not run by compare.json for a finding past the detail limit (a spread would run it to drop it)', () => {
    const own = Object.getOwnPropertyDescriptor(finding, 'history')!;
    let reads = 0;
    const counted = Object.defineProperty({ ...finding, history: [] }, 'history', {
      ...own,
      get: () => (reads++, own.get!()),
    });
    const past = JSON.parse(renderJson({ ...comparison, findings: [counted] }, 0));
    expect(past.findings[0].history).toBeNull();
    expect(Object.keys(past.findings[0])).toEqual(Object.keys(finding)); // the same fields, in order
    expect(reads).toBe(0);
    const shown = JSON.parse(renderJson({ ...comparison, findings: [counted] }, 1));
    expect(shown.findings[0].history).toEqual(runWorld(input, SHORT).entries);
    expect(reads).toBeGreaterThan(0);
  });

  it('which differs from the same input under the default options (the bug this guards against)', () => {
    expect(runWorld(input, DEFAULT_WORLD).entries).not.toEqual(finding.history);
  });

  it('its counterexample file saves the options, and replay reproduces under them', () => {
    const file = parseCounterexample(JSON.stringify(counterexampleFile(finding, [])));
    expect(file.world.deadlineMs).toBe(20_000);
    const r = replay(file, EMPTY_REGISTRY);
    expect(r.differences).toEqual([]);
    expect(r.reproduced).toBe(true);
    // The same file with the default deadline does not reproduce: replay really reads the options.
    expect(replay({ ...file, world: { ...file.world, deadlineMs: DEFAULT_WORLD.deadlineMs } }, EMPTY_REGISTRY).reproduced).toBe(false);
  });

  it('default options are recorded as such', async () => {
    const plain = await runComparison(matrix, runConfig(options));
    expect(plain.findings.length).toBeGreaterThan(0);
    for (const f of plain.findings) expect(f.world.deadlineMs).toBe(DEFAULT_WORLD.deadlineMs);
  });
});

describe('recomputed histories held at once', () => {
  it(`holds the last ${HELD_HISTORIES} run, each read again without running while held`, () => {
    const runs = new Array<number>(HELD_HISTORIES + 4).fill(0);
    const found = runs.map((_, i) => recomputedHistory({ i } as { i: number; history?: unknown }, () => (runs[i]!++, [])));
    for (const f of found) void f.history;
    expect(runs.every((n) => n === 1)).toBe(true);
    const last = found.at(-1)!;
    expect(last.history).toBe(last.history); // held: the same array, not run again
    expect(runs.at(-1)).toBe(1);
    void found[0]!.history; // fell out: run again
    expect(runs[0]).toBe(2);
    // Reading the first again pushed out the oldest still held (the fifth), not the last.
    void found[4]!.history;
    void last.history;
    expect(runs[4]).toBe(2);
    expect(runs.at(-1)).toBe(1);
  });
});

// Progress as a user sees it in a terminal (the CLI under `script`, a real pseudo-terminal): every
// long command shows done/total, the time elapsed and an estimate of what is left, redrawn at least
// once a second. A pipe gets none of it (the other CLI tests read stdout and stderr through pipes).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { progressLine, seconds } from '../../../sim/cli/progress.ts';
import { ROOT, tempDir } from './run.ts';

const SCRIPT = '/usr/bin/script';
// The bar redraws on a 1 s timer; a loaded machine (the suite runs two files at once on two cores)
// may hold a tick back by most of a second. A bar that stops ticking still fails.
const REDRAW_S = 2;

function inTerminal(command: string): string[] {
  // The line is cut to the terminal's width, which `script` takes from the terminal it runs in (none
  // in CI: 80 columns, or 0); `stty` sets it to 120 for the CLI, so that the label is never cut.
  const r = spawnSync(SCRIPT, ['-qec', `stty cols 120 && node bin/mcp-faultsim.js ${command}`, '/dev/null'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(r.error, `${SCRIPT} (util-linux) gives the CLI a terminal: ${r.error?.message}`).toBeUndefined();
  expect(r.status, r.stderr).not.toBeNull();
  return r.stdout.split(/\r|\n/).filter((l) => /elapsed/.test(l));
}

function elapsed(line: string): number {
  const m = /· ([0-9.]+) s elapsed|· (\d+) min (\d+) s elapsed/.exec(line)!;
  return m[1] !== undefined ? Number(m[1]) : Number(m[2]) * 60 + Number(m[3]);
}

describe('progress in a terminal', () => {
  it('explore: done/total, elapsed and an estimate, redrawn at least once a second while workers run', () => {
    // The whole vocabulary to depth 3: ≈ 2.6 s on a quiet machine, long enough that the estimate shows
    // (after 0.5 s). Three faults on two calls ended in 0.3 s there, before any estimate.
    const lines = inTerminal('explore --depth 3 --workers 2');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines[0]).toMatch(/^\[\.+\] 0\/6 · 0\.0 s elapsed · estimating workloads explored/);
    expect(lines.some((l) => /\] [1-5]\/6 · [0-9.]+ s elapsed · ~[0-9.]+ (s|min)/.test(l))).toBe(true);
    const times = lines.map(elapsed);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeLessThanOrEqual(REDRAW_S);
  }, 120_000);

  it('compare: cells done/total, refined by the runs inside the current cell', () => {
    // Two cells of 20,000 runs, one after the other on one cell thread: ≈ 2 s each on a quiet machine,
    // long enough that the estimate shows (after 0.5 s) inside each.
    const lines = inTerminal(`compare --server reinit=pin-first --runs 20000 --out ${tempDir('progress')}`);
    expect(lines.length).toBeGreaterThan(3);
    const left = '[0-9.]+ s elapsed · ~([0-9.]+ s|\\d+ min \\d+ s) left';
    const first = new RegExp(`\\] 0/2 · ${left} record 000: server\\.reinit=pin-first · record alphabet`);
    const second = new RegExp(`\\] 1/2 · ${left} record 000: server\\.reinit=pin-first · all faults`);
    expect(lines.some((l) => first.test(l))).toBe(true);
    // The second cell is named, and counted from one done, while it runs (not once it has ended).
    const during = lines.filter((l) => second.test(l));
    expect(new Set(during.map((l) => l.slice(0, 22))).size, 'the bar fills inside the second cell').toBeGreaterThan(1);
    const times = lines.map(elapsed);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeLessThanOrEqual(REDRAW_S);
  }, 120_000);
});

describe('the progress line', () => {
  it('estimates the time left from the fraction done', () => {
    expect(progressLine({ done: 1, total: 4, label: 'x', fraction: 0 }, 10_000, 200)).toBe(
      '[#####...............] 1/4 · 10 s elapsed · ~30 s left x',
    );
    expect(progressLine({ done: 1, total: 4, label: 'x', fraction: 0.5 }, 3_000, 200)).toBe(
      '[########............] 1/4 · 3.0 s elapsed · ~5.0 s left x',
    );
    expect(seconds(125_000)).toBe('2 min 05 s');
  });
});

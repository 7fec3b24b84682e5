// `npm run bench:docs` writes one saved bench run between the page's markers (the against section's
// tables and the targets it fills among them), and refuses, with one line and exit 2, what is not a
// full run or a page without the markers (leaving the page as it was).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { judgeTargets } from '../../bench/targets.ts';

const script = fileURLToPath(new URL('../../bench/docs-section.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcp-faultsim-bench-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PAGE = '# x\n\nbefore\n\n<!-- bench:begin -->\nold figures\n<!-- bench:end -->\n\nafter\n';
const run = (quick: boolean) => ({
  machine: { node: 'v20.20.2', cpus: 2, loadBefore: [1, 1, 1], loadAfter: [2, 2, 2], note: 'shared', quick },
  memory: { sessions: 1_000_000, heapAfter10kMB: 40, heapAfterAllMB: 41, heapGrowthMB: 1, gc: true },
  targets: {
    heap: { target: 'heap growth < 50 MB over 1M sessions', met: true, figure: '1 MB' },
    fast: { target: 'engine ≥ 5×', met: false, figure: '×2.5' },
    wire: { target: 'wire ≥ 0.9', met: null, figure: null },
  },
  timing: { memory: 12.5, total: 12.6 },
});

const page = join(dir, 'performance.md');
const tsx = (file: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', script, join(dir, file), '--doc', page], { encoding: 'utf8' });

describe('bench:docs', () => {
  test('replaces what is between the markers with that run, and keeps the rest', () => {
    writeFileSync(page, PAGE);
    writeFileSync(join(dir, 'run.json'), JSON.stringify(run(false)));
    execFileSync(process.execPath, ['--import', 'tsx', script, join(dir, 'run.json'), '--doc', page], { encoding: 'utf8' });
    const out = readFileSync(page, 'utf8');
    expect(out).not.toContain('old figures');
    expect(out.startsWith('# x\n\nbefore\n\n<!-- bench:begin -->')).toBe(true);
    expect(out.endsWith('<!-- bench:end -->\n\nafter\n')).toBe(true);
    expect(out).toContain('Targets: 1 met, 1 missed, 1 not measured.');
    expect(out).toContain('heap after 1,000,000 sessions');
    expect(out).toMatch(/MISSED\s+engine ≥ 5×: ×2\.5/);
  });

  test('refuses a --quick run and a file that is not a bench run, in one line, page untouched', () => {
    writeFileSync(page, PAGE);
    writeFileSync(join(dir, 'quick.json'), JSON.stringify(run(true)));
    writeFileSync(join(dir, 'bad.json'), '{"not": "a run"');
    for (const [file, why] of [
      ['quick.json', /is a --quick run/],
      ['bad.json', /cannot read .*bad\.json as the JSON of one bench run/],
      ['missing.json', /cannot read .*missing\.json/],
    ] as const) {
      const r = tsx(file);
      expect(r.status, file).toBe(2);
      expect(r.stderr.trim().split('\n'), file).toHaveLength(1);
      expect(r.stderr, file).toMatch(why);
      expect(readFileSync(page, 'utf8')).toBe(PAGE);
    }
  });

  test('renders the against section: both commits, the ratio, and the targets it fills', () => {
    const side = (perSecond: number) => ({ cpuSeconds: 3, smallCpuSeconds: 1, perSecond, wholePerSecond: perSecond / 2 });
    const rate = (unit: 'sessions' | 'states', same: boolean) => ({
      unit,
      command: `mcp-faultsim ${unit === 'sessions' ? 'check' : 'explore'} --json --quiet`,
      small: '--runs 1',
      work: 20_000,
      smallWork: 1,
      same,
      here: side(12_000),
      base: side(1_000),
      ratio: 12,
      wholeRatio: 6,
    });
    const full = {
      command: 'mcp-faultsim compare --matrix full --quiet',
      base: '52c6b3c',
      here: [8, 9],
      baseline: [60, 62],
      hereMedian: 8.5,
      baseMedian: 61,
      ratio: 0.14,
    };
    const against = {
      here: 'this checkout (abc1234)',
      rounds: 3,
      installed: ['c1f4702'],
      check: rate('sessions', true),
      explore: rate('states', false),
      full,
    };
    const report = { ...run(false), against, targets: judgeTargets({ against }) };
    writeFileSync(page, PAGE);
    writeFileSync(join(dir, 'run.json'), JSON.stringify(report));
    execFileSync(process.execPath, ['--import', 'tsx', script, join(dir, 'run.json'), '--doc', page], { encoding: 'utf8' });
    const out = readFileSync(page, 'utf8');
    expect(out).toContain('installed c1f4702 in this run');
    expect(out).toMatch(/this checkout \(abc1234\)\s+12,000 sessions\/s/);
    expect(out).toMatch(/this checkout \/ c1f4702\s+×12 {2}\(whole runs ×6\)/);
    expect(out).toContain('the commits answered differently');
    expect(out).toMatch(/this checkout \/ 52c6b3c\s+×0\.14/);
    expect(out).toMatch(/met\s+issue 40: check sessions\/s ≥ ×10 c1f4702 .*: ×12 \(12,000 vs 1,000 sessions\/s of CPU\)/);
    // explore's two commits did different work: no ratio to judge
    expect(out).toMatch(/not measured\s+issue 40: explore states\/s ≥ ×10 c1f4702/);
    expect(out).toMatch(/met\s+issue 40: compare --matrix full ≤ 10 s CPU: 8\.5 s CPU/);
    expect(out).toMatch(/met\s+issue 40: compare --matrix full's CPU no more than 52c6b3c's .*: ×0\.14/);
  });

  test('refuses a page without the markers, in one line, page untouched', () => {
    writeFileSync(page, '# no markers\n');
    writeFileSync(join(dir, 'run.json'), JSON.stringify(run(false)));
    const r = tsx('run.json');
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/has no <!-- bench:begin --> … <!-- bench:end --> markers/);
    expect(readFileSync(page, 'utf8')).toBe('# no markers\n');
  });
});

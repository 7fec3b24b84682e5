// What the bench reads of a CLI process it starts (bench/compare.ts REPORT_USAGE): the process's own
// CPU time and peak RSS as it exits. The peak is the child's own high-water mark: Linux carries
// `maxRSS` over from the parent at exec, so a child of a large process read as large as its parent.
// And bench/section-process.ts refuses a part it does not know with one line.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPORT_USAGE, usageOf } from '../../bench/compare.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MB = 1024 * 1024;

describe('a CLI process measured by the bench', () => {
  it("reports its own peak RSS, not its parent's", () => {
    // This process made large (every page touched), the child small: 60 MB of its own.
    const ballast = Array.from({ length: 40 }, () => Buffer.alloc(10 * MB, 1));
    expect(process.memoryUsage().rss).toBeGreaterThan(400 * MB);
    const r = spawnSync(process.execPath, ['--import', REPORT_USAGE, '-e', 'globalThis.kept = Buffer.alloc(60 * 1024 * 1024, 1)'], {
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const usage = usageOf(r.stderr);
    expect(usage.maxRssKB * 1024).toBeGreaterThan(60 * MB);
    expect(usage.maxRssKB * 1024).toBeLessThan(250 * MB);
    expect(usage.cpuUs).toBeGreaterThan(0);
    expect(ballast.length).toBe(40);
  });
});

describe('bench/section-process.ts', () => {
  it('refuses a part it does not know with one line and exit 2', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/section-process.ts', 'nope'], { cwd: root, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("bench/section-process.ts: the parts are seeds, vocabulary, depth6, not 'nope'\n");
  });
});

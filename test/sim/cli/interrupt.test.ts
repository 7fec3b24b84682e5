// Ctrl-C inside a long cell, as a user sends it to the process: the cell runs on a worker thread
// that checks a stop flag between runs (compare/cell-threads.ts, on the worker pool), so the comparison stops within seconds
// and writes what finished, marked interrupted, exit 130. (It used to finish the whole cell first, and
// then to draw all of its million inputs before the first run: the inputs are drawn lazily now.)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './run.ts';

/** User + system CPU seconds of a process so far (fields 14 and 15 of /proc/PID/stat, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

describe('SIGINT inside a cell', () => {
  it('stops the running cell between its runs, writes the reports marked interrupted, exits 130', async () => {
    const out = tempDir('sigint');
    const child = spawn(
      process.execPath,
      ['bin/mcp-faultsim.js', 'compare', '--server', 'reinit=pin-first', '--runs', '1000000', '--quiet', '--out', out],
      { cwd: ROOT },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Past loading and into the first cell: 5 s of the child's own CPU time (Linux /proc), not of the
    // wall clock, which on a loaded machine may pass before the CLI has even installed its handler.
    const started = Date.now();
    while (cpuSeconds(child.pid!) < 5 && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 100));
    const sent = Date.now();
    child.kill('SIGINT');
    const code = await exited;
    const after = Date.now() - sent;
    expect(code).toBe(130);
    expect(stderr).toContain('interrupted; writing what finished');
    expect(after).toBeLessThan(20_000);
    const c = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8'));
    expect(c.interrupted).toBe(true);
    expect(c.cells).toHaveLength(0); // the first cell of 1,000,000 runs was stopped inside, not finished
    expect(readFileSync(join(out, 'compare.md'), 'utf8')).toContain('**Interrupted:** 0 of 2 cells finished');
  }, 90_000);
});

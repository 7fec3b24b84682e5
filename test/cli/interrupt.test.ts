// Ctrl-C inside a long cell, as a user sends it to the process: the cell runs on a worker thread
// that checks a stop flag between runs (cli/cell-thread.ts), so the comparison stops within seconds
// and writes what finished, marked interrupted, exit 130. (It used to finish the whole cell first, and
// then to draw all of its million inputs before the first run: the inputs are drawn lazily now.)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './run.ts';

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
    await new Promise((r) => setTimeout(r, 6000));
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

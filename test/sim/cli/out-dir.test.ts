// --out as a user gives it, and a report set that is replaced whole: a bad --out is one line and
// exit 2 before any work; a write that fails leaves the old set, never a mix of two runs.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMatrix } from '../../../sim/compare/matrix.ts';
import { runComparison } from '../../../sim/compare/compare.ts';
import { writeReports } from '../../../sim/cli/report-files.ts';
import { itRejects, tempDir } from './run.ts';
import { runConfig } from '../../../sim/plugins/run-config.ts';

const file = join(tempDir('out-file'), 'a-file');
writeFileSync(file, 'not a folder');

describe('--out is checked before any work', () => {
  itRejects([
    ['an existing file', ['compare', '--quiet', '--out', file], /--out '.*a-file': is a file, not a folder/],
    ['a path under a file', ['compare', '--quiet', '--out', join(file, 'x')], /a part of the path is a file/],
    ['/dev/full', ['compare', '--quiet', '--out', '/dev/full'], /--out '\/dev\/full': is a file, not a folder/],
    [
      '/proc/nope/out (used to spin at 100% CPU)',
      ['compare', '--quiet', '--out', '/proc/nope/out'],
      /--out '\/proc\/nope\/out': cannot write there/,
    ],
    ["'' (used to write into the current folder)", ['compare', '--quiet', '--out', ''], /--out must name a folder, not ''/],
    ['the current folder', ['compare', '--quiet', '--out', '.'], /is the current folder or contains it/],
  ]);
});

async function comparison(reinit: string) {
  const cells = buildMatrix('records', { server: { reinit: [reinit] }, client: {} });
  return runComparison(
    { cells, kind: 'records', cut: { server: { reinit: [reinit] }, client: {} }, size: cells.length },
    runConfig({ seed: 1, runs: 20 }),
  );
}

describe('the report set is swapped in whole', () => {
  it('a stale compare.html folder does not leave a new JSON beside an old HTML', async () => {
    const out = tempDir('set');
    const a = await comparison('pin-first');
    writeReports(a, out, 200);
    writeFileSync(join(out, 'mine.txt'), 'a file of the user');
    // A non-empty folder where the HTML goes: the old way renamed each file in turn, so the JSON,
    // Markdown and counterexamples were the new run's and the write failed at the HTML.
    const stale = join(out, 'compare.html');
    rmSync(stale);
    mkdirSync(stale);
    writeFileSync(join(stale, 'x'), 'x');
    const b = await comparison('honor-last');
    writeReports(b, out, 200);
    const json = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8'));
    expect(json.matrix.cut.server.reinit).toEqual(['honor-last']);
    expect(readFileSync(join(out, 'compare.html'), 'utf8')).toContain('honor-last');
    expect(readdirSync(join(out, 'counterexamples')).length).toBe(b.findings.length);
    expect(readFileSync(join(out, 'mine.txt'), 'utf8')).toBe('a file of the user');
    expect(readdirSync(out).filter((f) => f.startsWith('.'))).toEqual([]);
  }, 60_000);

  it('a write that fails midway leaves the old set whole and no temporary folder', async () => {
    const out = tempDir('fail');
    const a = await comparison('pin-first');
    writeReports(a, out, 200);
    const before = readFileSync(join(out, 'compare.json'), 'utf8');
    const names = readdirSync(join(out, 'counterexamples')).sort();
    const b = await comparison('honor-last');
    const last = b.findings[b.findings.length - 1]!;
    b.findings[b.findings.length - 1] = { ...last, id: `${last.id}\0bad` }; // the file system refuses the name
    expect(() => writeReports(b, out, 200)).toThrow();
    expect(readFileSync(join(out, 'compare.json'), 'utf8')).toBe(before);
    expect(readdirSync(join(out, 'counterexamples')).sort()).toEqual(names);
    expect(readdirSync(join(out, '..')).filter((f) => f.startsWith('.') && f.includes('tmp'))).toEqual([]);
  }, 60_000);
});

// Reports are never half-written: files are renamed into place, and the counterexample folder is
// replaced whole, so a new run leaves no stale finding behind.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replaceFolder, writeAtomic } from '../../../sim/cli/files.ts';
import { run, tempDir } from './run.ts';

describe('writing reports', () => {
  it('writes a file through a temporary name and leaves nothing else', () => {
    const dir = tempDir('atomic');
    writeAtomic(join(dir, 'sub', 'a.txt'), 'one');
    writeAtomic(join(dir, 'sub', 'a.txt'), 'two');
    expect(readdirSync(join(dir, 'sub'))).toEqual(['a.txt']);
    expect(readFileSync(join(dir, 'sub', 'a.txt'), 'utf8')).toBe('two');
  });

  it('replaces a folder whole', () => {
    const dir = tempDir('folder');
    replaceFolder(
      join(dir, 'c'),
      new Map([
        ['old.json', '1'],
        ['kept.json', '2'],
      ]),
    );
    replaceFolder(
      join(dir, 'c'),
      new Map([
        ['kept.json', '3'],
        ['new.json', '4'],
      ]),
    );
    expect(readdirSync(join(dir, 'c')).sort()).toEqual(['kept.json', 'new.json']);
    expect(readdirSync(dir)).toEqual(['c']);
  });

  it('a second compare into the same folder leaves only its own findings', async () => {
    const out = tempDir('rerun');
    expect((await run('compare', '--quiet', '--runs', '20', '--server', 'reinit=honor-last', '--out', out)).code).toBe(0);
    const before = readdirSync(join(out, 'counterexamples'));
    expect((await run('compare', '--quiet', '--runs', '20', '--server', 'reinit=pin-first', '--out', out)).code).toBe(0);
    const after = readdirSync(join(out, 'counterexamples'));
    expect(after.some((f) => before.includes(f))).toBe(false);
    expect(after.every((f) => f.includes('pin-first'))).toBe(true);
    expect(existsSync(join(out, 'compare.md'))).toBe(true);
    expect(readdirSync(out).filter((f) => f.startsWith('.'))).toEqual([]);
  });
});

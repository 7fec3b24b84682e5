// Issue 8's rule, kept: a source file is one concept, about 50–200 lines and at most ~300; a file
// past 300 lines says why in its header, on a line that starts `// Why one file:`. Tests may be
// longer (a suite reads best whole). The checker must also fire on a planted file.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const LIMIT = 300;
const FOLDERS = ['models', 'properties', 'reports', 'sim', 'bench'];
const SOURCE = /\.(ts|mjs|js)$/;
/** Files past the limit today that another change is splitting; the list only shrinks. */
const KNOWN_LONG: string[] = [];

function sources(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name) && !e.name.endsWith('.test.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** The files of `root` past the limit whose header gives no reason, with their lengths. */
function longWithoutReason(root: string, folders: readonly string[]): string[] {
  const out: string[] = [];
  for (const file of folders.flatMap((d) => sources(root, d))) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    const length = lines.at(-1) === '' ? lines.length - 1 : lines.length;
    if (length <= LIMIT) continue;
    const header = lines.slice(
      0,
      lines.findIndex((l) => !l.startsWith('//')),
    );
    if (!header.some((l) => l.startsWith('// Why one file:'))) out.push(`${file} (${length} lines)`);
  }
  return out.sort();
}

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

describe('no source file over 300 lines without a reason in its header', () => {
  it('holds for the tree (but for the files being split)', () => {
    const long = longWithoutReason(ROOT, FOLDERS).filter((f) => !KNOWN_LONG.some((k) => f.startsWith(`${k} `)));
    expect(long).toEqual([]);
  });

  it('fires on a planted long file, not on one that says why or on a long test', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-faultsim-length-'));
    temps.push(dir);
    mkdirSync(join(dir, 'models'));
    const body = Array.from({ length: LIMIT }, (_, i) => `export const x${i} = ${i};`).join('\n');
    writeFileSync(join(dir, 'models/long.ts'), `// A header.\n${body}\n`);
    writeFileSync(join(dir, 'models/reasoned.ts'), `// A header.\n// Why one file: one table.\n${body}\n`);
    writeFileSync(join(dir, 'models/long.test.ts'), `// A test.\n${body}\n`);
    writeFileSync(join(dir, 'models/short.ts'), `// A header.\n${body.split('\n').slice(1).join('\n')}\n`);
    expect(longWithoutReason(dir, ['models'])).toEqual([`models/long.ts (${LIMIT + 1} lines)`]);
  });
});

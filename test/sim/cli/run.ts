// Run the CLI in this process, as a user would from a shell, and capture what it prints.
import { mkdtempSync } from 'node:fs';
import { expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { main } from '../../../sim/cli/main.ts';

export async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const sink = (f: (s: string) => void) => new Writable({ write: (chunk, _e, cb) => (f(String(chunk)), cb()) });
  const code = await main(
    argv,
    sink((s) => (stdout += s)),
    sink((s) => (stderr += s)),
  );
  return { code, stdout, stderr };
}

export function tempDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `mcp-faultsim-${name}-`));
}

export const ROOT = new URL('../../..', import.meta.url).pathname;

/** Each bad input: one line on stderr naming what was wrong, nothing on stdout, exit 2. */
export function itRejects(cases: readonly (readonly [name: string, argv: readonly string[], message: RegExp])[]): void {
  for (const [name, argv, message] of cases) {
    it(`${name}: one line on stderr, exit 2`, async () => {
      const r = await run(...argv);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
  }
}

// Which code bin/mcp-faultsim.js runs in a checkout: dist/ while it is the build of the sources as
// they are (the digest the build recorded, bin/build-digest.js), the sources through tsx once one of
// them changed or when MCP_FAULTSIM_FROM_SOURCE=1 asks. Run in a small checkout of its own (the
// real bin/, a one-file "source" and "build" that say which ran), so that nothing here touches the
// repository's dist/.
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDigest, buildInputs, DIGEST_FILE, distIsFresh } from '../../../bin/build-digest.js';
import { COPIED } from '../../../bin/build.mjs';
import { ROOT } from './run.ts';

const work = mkdtempSync(join(tmpdir(), 'mcp-faultsim-entry-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A checkout whose sim/cli/main.ts and dist/sim/cli/main.js print which of them ran. */
function checkout(): string {
  const dir = mkdtempSync(join(work, 'checkout-'));
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  mkdirSync(join(dir, 'sim', 'cli'), { recursive: true });
  mkdirSync(join(dir, 'dist', 'sim', 'cli'), { recursive: true });
  mkdirSync(join(dir, 'node_modules', 'typescript'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules', 'tsx'), join(dir, 'node_modules', 'tsx'));
  writeFileSync(join(dir, 'node_modules', 'typescript', 'package.json'), JSON.stringify({ version: '5.9.3' }));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(dir, 'package-lock.json'), '{}');
  writeFileSync(join(dir, 'tsconfig.json'), '{}');
  writeFileSync(join(dir, 'tsconfig.build.json'), '{\n  // what the build compiles\n  "include": ["sim"]\n}\n');
  const main = (which: string) => `export async function main(): Promise<number> { process.stdout.write('${which}'); return 0; }\n`;
  writeFileSync(join(dir, 'sim', 'cli', 'main.ts'), main('source'));
  writeFileSync(join(dir, 'dist', 'sim', 'cli', 'main.js'), main('dist').replace(': Promise<number>', ''));
  writeFileSync(join(dir, DIGEST_FILE), `${buildDigest(dir)}\n`);
  return dir;
}

const ran = (dir: string, env: Record<string, string> = {}) =>
  execFileSync(process.execPath, [join(dir, 'bin', 'mcp-faultsim.js')], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, MCP_FAULTSIM_FROM_SOURCE: '', ...env },
  });

describe('the entry point in a checkout', () => {
  it('runs dist/ while it is the build of the sources, the sources once one changed', () => {
    const dir = checkout();
    expect(distIsFresh(dir)).toBe(true);
    expect(ran(dir)).toBe('dist');
    expect(ran(dir, { MCP_FAULTSIM_FROM_SOURCE: '1' })).toBe('source');
    appendFileSync(join(dir, 'sim', 'cli', 'main.ts'), '// edited\n');
    expect(distIsFresh(dir)).toBe(false);
    expect(ran(dir)).toBe('source');
  });

  it('runs the sources when the build left no digest, or the compiler changed', () => {
    const dir = checkout();
    writeFileSync(join(dir, 'node_modules', 'typescript', 'package.json'), JSON.stringify({ version: '5.9.4' }));
    expect(ran(dir)).toBe('source');
    rmSync(join(dir, DIGEST_FILE));
    expect(distIsFresh(dir)).toBe(false);
    expect(ran(dir)).toBe('source');
  });

  it("covers every code file the repository's build compiles, and the build's settings", () => {
    const inputs = buildInputs(ROOT);
    for (const f of [
      'sim/cli/main.ts',
      'index.ts',
      'sim/wire/process/loopback-worker.mjs',
      'models/policies.ts',
      'tsconfig.build.json',
      'package-lock.json',
    ]) {
      expect(inputs).toContain(f);
    }
    expect(inputs.some((f) => f.startsWith('node_modules') || f.startsWith('dist') || (f.endsWith('.json') && f.includes('/')))).toBe(
      false,
    );
    expect(buildDigest(ROOT)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('copies every JavaScript thread entry that compiled code starts, and dist/ has them', () => {
    // `new URL('./x.mjs', import.meta.url)` outside a `.ts ? … : …` choice is loaded from dist/ as it is.
    const started = buildInputs(ROOT)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        [...readFileSync(join(ROOT, f), 'utf8').matchAll(/new URL\('\.\/([\w-]+\.mjs)', import\.meta\.url\)/g)].map(
          (m) => `${f.slice(0, f.lastIndexOf('/') + 1)}${m[1]}`,
        ),
      );
    expect(started.sort()).toEqual([...COPIED].sort());
    if (distIsFresh(ROOT)) for (const f of COPIED) expect(existsSync(join(ROOT, 'dist', f)), f).toBe(true);
  });
});

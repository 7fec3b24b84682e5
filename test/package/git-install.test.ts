// docs/library.md's git-URL install line, run as written but on local disk: the GitHub URL swapped for
// a fresh clone of this repository's HEAD (`git+file://`), the unversioned vitest packages pinned to
// the repository's own versions (npm then answers from its cache). npm treats both URLs as a git
// dependency: it fetches the committed files (dist/ is not among them), installs the package's
// devDependencies and runs `prepare` (`npm run build`), then packs what `files` lists; that build path
// is what this checks. What it cannot check is GitHub itself (the repository's name, its reachability,
// npm fetching a hosted repository as a codeload tarball rather than a clone). Only committed work is
// installed: commit before running it. A step that cannot run fails the test.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../sim/cli/run.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
const work = mkdtempSync(join(tmpdir(), 'mcp-faultsim-git-'));
const clone = join(work, 'clone');
const project = join(work, 'scratch');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = promisify(execFile);
const sh = (cmd: string, args: string[], cwd: string) =>
  run(cmd, args, { cwd, encoding: 'utf8', timeout: 600_000, maxBuffer: 64 << 20 }).catch((e: { stdout?: string; stderr?: string }) => {
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${(e.stdout ?? '').slice(-2000)}\n${(e.stderr ?? '').slice(-2000)}`);
  });

/** The install line docs/library.md gives for git, as its words. */
function docsGitLine(): string[] {
  const line = readFileSync(join(ROOT, 'docs/library.md'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('npm install') && l.includes('git+https://'));
  if (!line) throw new Error('docs/library.md has no `npm install … git+https://…` line');
  return line.split(/\s+/);
}

describe("docs/library.md's git-URL install line", () => {
  it('installs from a clone through prepare: the built package imports, its CLI runs', async () => {
    const words = docsGitLine();
    expect(words.slice(0, 3)).toEqual(['npm', 'install', '--save-dev']);
    expect(words).toContain('@fast-check/vitest');
    await sh('git', ['clone', '-q', '--depth', '1', `file://${ROOT}`, clone], work);
    expect(existsSync(join(clone, 'dist'))).toBe(false); // the build comes from prepare, not from git
    await sh('mkdir', [project], work);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, type: 'module' }));
    const args = words
      .slice(1)
      .map((w) => (w.startsWith('git+https://') ? `git+file://${clone}` : pkg.devDependencies[w] ? `${w}@${pkg.devDependencies[w]}` : w));
    await sh('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], project);

    const installed = join(project, 'node_modules/mcp-faultsim');
    expect(existsSync(join(installed, 'dist/index.js'))).toBe(true);
    expect(existsSync(join(installed, 'dist/index.d.ts'))).toBe(true);
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).devDependencies['mcp-faultsim']).toBe(`git+file://${clone}`);
    const probe =
      "const m = await import('mcp-faultsim'); const v = await import('mcp-faultsim/vitest'); console.log(typeof m.check, typeof v.expectNoSilentFailures);";
    expect((await sh('node', ['--input-type=module', '-e', probe], project)).stdout.trim()).toBe('function function');
    const list = await sh('npx', ['--no', '--', 'mcp-faultsim', 'list'], project);
    expect(list.stdout).toMatch(/server\.reinit .* \(default: honor-last;/);
  }, 900_000);
});

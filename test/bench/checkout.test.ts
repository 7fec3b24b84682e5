// bench/checkout.ts, on a small git repository made here (no network: its commits' packages have no
// dependencies): a commit is checked out in a worktree, installed with npm ci and built with its own
// build script, moved into the cache and the worktree removed; a second call takes the cache; a
// commit that does not exist or does not install (no lock file; offline: a registry on a closed
// loopback port) is one line (CheckoutError), with no worktree or half-made folder left behind.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, onTestFinished, test } from 'vitest';
import { builtCheckout, CheckoutError } from '../../bench/checkout.ts';
import { setEnv } from '../fixtures/env.ts';

const repo = mkdtempSync(join(tmpdir(), 'mcp-faultsim-bench-checkout-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
const cache = join(repo, 'node_modules', '.cache', 'mcp-faultsim-bench');
const worktrees = () => git('worktree', 'list').split('\n').length;

function commit(message: string, files: Record<string, string>): string {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(repo, name), text);
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '-m', message);
  return git('rev-parse', 'HEAD');
}

git('init', '-q');
writeFileSync(join(repo, '.gitignore'), 'node_modules/\n');
const pkg = (scripts: Record<string, string>) => JSON.stringify({ name: 'tiny', version: '1.0.0', scripts });
const lock = JSON.stringify({
  name: 'tiny',
  version: '1.0.0',
  lockfileVersion: 3,
  requires: true,
  packages: { '': { name: 'tiny', version: '1.0.0' } },
});
const built = commit('builds', {
  'package.json': pkg({ build: `node -e "require('fs').writeFileSync('built.txt','yes')"` }),
  'package-lock.json': lock,
  'a.txt': 'a\n',
});
git('rm', '-q', 'package-lock.json');
const unlocked = commit('no lock file', {});
// A dependency no cache holds, from a registry on a closed loopback port (every host replaced by it):
// what an offline machine sees, without a request leaving this one.
const dep = 'mcp-faultsim-bench-absent';
const tarball = `https://registry.npmjs.org/${dep}/-/${dep}-1.0.0.tgz`;
const offline = commit('a dependency', {
  'package.json': JSON.stringify({ name: 'tiny', version: '1.0.0', dependencies: { [dep]: '1.0.0' } }),
  'package-lock.json': JSON.stringify({
    name: 'tiny',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'tiny', version: '1.0.0', dependencies: { [dep]: '1.0.0' } },
      [`node_modules/${dep}`]: { version: '1.0.0', resolved: tarball, integrity: `sha512-${'A'.repeat(86)}==` },
    },
  }),
});
const OFFLINE_ENV = {
  npm_config_registry: 'http://127.0.0.1:9/',
  npm_config_replace_registry_host: 'always',
  npm_config_fetch_retries: '0',
};

describe('builtCheckout', () => {
  test('installs, builds and caches a commit, removes its worktree, and takes the cache the second time', () => {
    const first = builtCheckout(repo, built.slice(0, 7));
    expect(first).toEqual({ sha: built, dir: join(cache, built), cached: false });
    expect(readFileSync(join(first.dir, 'built.txt'), 'utf8')).toBe('yes');
    expect(readFileSync(join(first.dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(existsSync(join(first.dir, '.git'))).toBe(false);
    expect(worktrees()).toBe(1);
    expect(readdirSync(cache)).toEqual([built]);
    rmSync(join(first.dir, 'built.txt'));
    expect(builtCheckout(repo, built)).toEqual({ ...first, cached: true });
    expect(existsSync(join(first.dir, 'built.txt'))).toBe(false); // nothing ran again
  });

  test('a commit that does not install or does not exist: one line, nothing left behind', () => {
    onTestFinished(setEnv(OFFLINE_ENV));
    for (const [rev, why] of [
      [offline, /^npm ci of [0-9a-f]{7} \(offline\? it installs from the npm registry\) failed: ECONNREFUSED: .*127\.0\.0\.1:9/],
      [
        unlocked,
        /^npm ci of [0-9a-f]{7} \(offline\? it installs from the npm registry\) failed: EUSAGE: The `npm ci` command can only install with an existing package-lock/,
      ],
      ['0123456789abcdef0123456789abcdef01234567', /^commit 0123456789abcdef0123456789abcdef01234567 is not in this clone/],
    ] as const) {
      let error: unknown;
      try {
        builtCheckout(repo, rev);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(CheckoutError);
      expect((error as Error).message).toMatch(why);
      expect((error as Error).message).not.toContain('\n');
      expect(worktrees()).toBe(1);
      expect(readdirSync(cache)).toEqual([built]);
    }
  });
});

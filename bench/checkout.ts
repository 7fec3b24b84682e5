// A built checkout of an earlier commit, for measuring it side by side with this one (bench/against.ts).
// The commit is checked out with `git worktree add --detach` into a temporary folder, installed there
// with `npm ci` (its own lock file; the npm registry is the only network this touches, and npm is told
// not to audit, fund or check for updates), and built with its own `npm run build` where its
// package.json has one (c1f4702 has none: its CLI runs the sources through tsx). Its files are then
// moved into node_modules/.cache/mcp-faultsim-bench/<sha>/ and the worktree is removed, on failure
// too. A marker file written last makes the folder a finished checkout: a second bench run finds it
// and installs nothing (delete the folder to install again).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { note } from './measure.ts';

/** A checkout that could not be made: its message is the one line the bench prints. */
export class CheckoutError extends Error {}

export interface Checkout {
  sha: string;
  dir: string;
  /** Found in the cache: nothing was installed by this run. */
  cached: boolean;
}

const MARKER = '.bench-checkout.json';

/** The environment of the nested npm: the user's npm config (npm_config_*: a registry mirror, a
 *  proxy) kept, but not `npm run bench`'s own package and lifecycle variables, and no audit, funding
 *  or update check: the install is the only traffic. */
function npmEnv(): NodeJS.ProcessEnv {
  const own = /^(npm_(package|lifecycle)_|npm_command$|init_cwd$)/i;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !own.test(k)));
  return { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}

/** The line that says why a command failed: npm's code and first message line (not its usage,
 *  its log's path or its key/value lines), git's fatal line, or else the last line printed. */
function whyFailed(said: string[]): string | undefined {
  const npm = said.flatMap((l) => /^npm (?:error|ERR!)\s*(.*)$/.exec(l)?.[1] ?? []);
  const code = npm.map((l) => /^code (\S+)$/.exec(l)?.[1]).find(Boolean);
  const message = npm.find((l) => l && !/^(code|syscall|errno|path|dest|A complete log)\b/.test(l));
  if (message) return code ? `${code}: ${message}` : message;
  return said.find((l) => /^(fatal|error):/i.test(l)) ?? said.at(-1);
}

/** Run a command; on failure, a CheckoutError naming what failed, in one line. */
function run(what: string, cmd: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: env ?? process.env, maxBuffer: 64 * 1024 * 1024 });
  if (r.status === 0) return r.stdout.trim();
  const said = `${r.stderr ?? ''}\n${r.stdout ?? ''}`
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  throw new CheckoutError(`${what} failed: ${r.error ? r.error.message : (whyFailed(said) ?? `exit ${r.status}`)}`);
}

/** The full sha of `rev` in the repository at `root`. */
export function resolveCommit(root: string, rev: string): string {
  try {
    return run(`git rev-parse ${rev}`, 'git', ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], root);
  } catch {
    throw new CheckoutError(`commit ${rev} is not in this clone (a shallow clone? git fetch --unshallow)`);
  }
}

/** The built checkout of `rev`, from the cache or made now. */
export function builtCheckout(root: string, rev: string): Checkout {
  const sha = resolveCommit(root, rev);
  const cache = join(root, 'node_modules', '.cache', 'mcp-faultsim-bench');
  const dir = join(cache, sha);
  const marker = join(dir, MARKER);
  if (existsSync(marker)) {
    const m = JSON.parse(readFileSync(marker, 'utf8')) as { sha?: string; node?: string };
    if (m.sha === sha && m.node === process.version) return { sha, dir, cached: true };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(cache, { recursive: true });
  const work = join(cache, `${sha}.work-${process.pid}`);
  const part = join(cache, `${sha}.part-${process.pid}`);
  const short = sha.slice(0, 7);
  try {
    note(`against: git worktree add ${short}`);
    run(`git worktree add ${short}`, 'git', ['worktree', 'add', '--detach', '--quiet', work, sha], root);
    note(`against: npm ci in the checkout of ${short} (from the npm registry)`);
    run(
      `npm ci of ${short} (offline? it installs from the npm registry)`,
      'npm',
      ['ci', '--prefer-offline', '--loglevel=error'],
      work,
      npmEnv(),
    );
    const pkg = JSON.parse(readFileSync(join(work, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    if (pkg.scripts?.build) {
      note(`against: npm run build in the checkout of ${short}`);
      run(`npm run build of ${short}`, 'npm', ['run', '--silent', 'build'], work, npmEnv());
    }
    // Everything but the worktree's link to the repository moves to the cache; the worktree goes.
    mkdirSync(part);
    for (const entry of readdirSync(work)) if (entry !== '.git') renameSync(join(work, entry), join(part, entry));
    writeFileSync(join(part, MARKER), `${JSON.stringify({ sha, node: process.version })}\n`);
    renameSync(part, dir);
    return { sha, dir, cached: false };
  } finally {
    if (existsSync(work)) {
      const removed = spawnSync('git', ['worktree', 'remove', '--force', work], { cwd: root, stdio: 'ignore' }).status === 0;
      rmSync(work, { recursive: true, force: true });
      if (!removed) spawnSync('git', ['worktree', 'prune'], { cwd: root, stdio: 'ignore' });
    }
    rmSync(part, { recursive: true, force: true });
  }
}

// The package as a user gets it: `npm pack` (which builds dist/ through `prepare`), the tarball
// installed into a fresh project outside the repository, then, from there: plain Node imports the
// library (no TypeScript loader), a vitest suite runs the README's examples, `tsc` type-checks a
// file that uses it, and the CLI runs `list`, `check`, `explore` (the compiled pool worker), a
// policy module from a CommonJS folder, and `check --wire --serve` (the loopback worker). Nothing
// here skips: a step that cannot run (npm offline without a cache, say) fails the test. The
// fresh project's tsconfig checks the libraries' .d.ts too (no skipLibCheck): ours among them.
import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../sim/cli/run.ts';

type Manifest = { version: string; devDependencies: Record<string, string>; dependencies: Record<string, string> };
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
const FIXTURE = new URL('./fresh-project/', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'mcp-faultsim-package-'));
const project = join(work, 'fresh');

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run a command; its exit status is part of the answer (npm's and tsc's failures say why on stdout/stderr). */
async function sh(cmd: string, args: string[], cwd: string, timeout = 300_000): Promise<Ran> {
  try {
    const r = await promisify(execFile)(cmd, args, { cwd, encoding: 'utf8', timeout, maxBuffer: 64 << 20 });
    return { code: 0, ...r };
  } catch (e) {
    const x = e as { code?: unknown; stdout?: string; stderr?: string; message: string };
    return { code: typeof x.code === 'number' ? x.code : -1, stdout: x.stdout ?? '', stderr: x.stderr ?? x.message };
  }
}

async function ok(cmd: string, args: string[], cwd = project): Promise<string> {
  const r = await sh(cmd, args, cwd);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}:\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
  return r.stdout;
}

const cli = (...args: string[]) => sh('npx', ['--no', '--', 'mcp-faultsim', ...args], project);

beforeAll(async () => {
  await ok('npm', ['pack', '--pack-destination', work], ROOT);
  const tarball = join(work, `mcp-faultsim-${pkg.version}.tgz`);
  expect(existsSync(tarball)).toBe(true);
  cpSync(FIXTURE, project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fresh', version: '1.0.0', private: true, type: 'module' }, null, 2));
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: ['node'] },
    }),
  );
  for (const example of ['library-example.test.ts', 'handler-example.test.ts', 'stateful-example.test.ts', 'client-example.test.ts']) {
    copyFileSync(new URL(`../examples/${example}`, import.meta.url), join(project, example));
  }
  const versions = (names: string[]) => names.map((n) => `${n}@${pkg.devDependencies[n] ?? pkg.dependencies[n]}`);
  await ok('npm', [
    'install',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    tarball,
    ...versions(['vitest', '@fast-check/vitest', 'typescript', '@types/node', '@modelcontextprotocol/sdk']),
  ]);
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed package, installed in a fresh project', () => {
  it('ships compiled JavaScript with types and nothing of the repository besides', () => {
    const installed = join(project, 'node_modules/mcp-faultsim');
    const top = readdirSync(installed)
      .filter((f) => f !== 'node_modules')
      .sort(); // (npm may nest a dependency)
    expect(top).toEqual(['LICENSE', 'README.md', 'bin', 'dist', 'package.json']);
    const entries = readdirSync(join(installed, 'dist'), { recursive: true, withFileTypes: true });
    const files = entries.filter((d) => d.isFile()).map((d) => d.name);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(files).toContain('index.d.ts');
    expect(files).toContain('loopback-worker.mjs');
    expect(files).toContain('import-probe.mjs');
    expect(files.some((f) => f.endsWith('.test.js'))).toBe(false);
  });

  it('imports from plain Node, with no loader, and runs a check', async () => {
    const out = JSON.parse(await ok('node', ['plain.mjs']));
    expect(out.execArgv).toEqual([]);
    expect(out.helper).toBe('function');
    expect(out.vocabulary).toBeGreaterThan(5);
    expect(out.verdicts['no-silent-empty']).toBe('holds');
  });

  it('runs the README and docs/library.md examples as a vitest suite of the project', async () => {
    const r = await sh('npx', ['--no', '--', 'vitest', 'run', '--reporter=json', '--outputFile=results.json'], project);
    expect(r.code, r.stderr.slice(-3000)).toBe(0);
    const results = JSON.parse(readFileSync(join(project, 'results.json'), 'utf8'));
    expect(results.numPassedTests).toBe(4);
    expect(results.numFailedTests).toBe(0);
  }, 300_000);

  it('type-checks a TypeScript file that uses the library and the helper', async () => {
    const r = await sh('npx', ['--no', '--', 'tsc', '-p', '.'], project);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  }, 300_000);

  it('runs `npx mcp-faultsim list` and `check`', async () => {
    const list = await cli('list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/server\.reinit .* \(default: honor-last;/);
    const check = await cli('check', '--faults', 'http-502,config-reset', '--runs', '30', '--json');
    expect(check.stderr).toBe('');
    expect(check.code).toBe(1); // the defaults are record 000's vulnerable cell
    const results: { property: string; verdict: string }[] = JSON.parse(check.stdout).results;
    const verdicts = Object.fromEntries(results.map((p) => [p.property, p.verdict]));
    expect(verdicts['no-silent-empty']).toBe('violated');
    const bad = await cli('check', '--faults', 'nope');
    expect(bad.code).toBe(2);
    expect(bad.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('explores on worker threads from dist/', async () => {
    const r = await cli('explore', '--faults', 'http-502,config-reset', '--depth', '2', '--workers', '2', '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBeLessThan(2);
    expect(JSON.parse(r.stdout)).toBeTypeOf('object');
  });

  it('loads a TypeScript policy module from a CommonJS folder that imports the package', async () => {
    const r = await cli('list', '--policies', 'policies/floor.ts');
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/fresh-floor\s+rejects every re-initialize \[from policies\/floor\.ts\]/);
  });

  it('refuses a policy module that never finishes loading, in one line (the import probe ships)', async () => {
    const r = await cli('list', '--policies', 'never-settles.mjs');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot load it: it never settles its top-level await/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('checks a server of its own on loopback (the loopback worker)', async () => {
    const serve = ['--serve', 'node server.mjs', '--tools', 'faultsim'];
    const r = await cli('check', '--wire', '--client', 'sdk', ...serve, '--faults', 'http-502', '--runs', '5', '--json');
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.wire.server).toBe('serve node server.mjs');
    expect(out.stats.faultsApplied['http-502']).toBeGreaterThan(0);
    expect(out.results[0].outcomes.ok).toBeGreaterThan(0);
  }, 300_000);
});

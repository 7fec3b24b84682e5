// examples/clients/clients.json, the one list of client harnesses the audit and the docs read: each
// entry's package is pinned at exactly its version in examples/clients/package.json and resolved so
// by that folder's lock file (the Python one by .ci/python-venv.sh), the wrapped SDK is the one the
// lock installs under the wrapper, the harness file exists, and an entry runs on Node 24 exactly when
// its package's `engines` rule out the machine's Node 20.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../sim/cli/run.ts';

const CLIENTS = join(ROOT, 'examples/clients');
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

interface Entry {
  name: string;
  package: string;
  version: string;
  registry: 'npm' | 'pypi';
  revisions: string[];
  command: string;
  node: '20' | '24' | null;
  wraps: string | null;
  notes: string;
}

const manifest: Entry[] = read(join(CLIENTS, 'clients.json'));
const lock = read(join(CLIENTS, 'package-lock.json'));
const pins: Record<string, string> = read(join(CLIENTS, 'package.json')).dependencies;
const npm = manifest.filter((e) => e.registry === 'npm');

/** The version the lock installs for `name` as seen from `from` (a package folder), as Node resolves it. */
function resolved(name: string, from = ''): string | undefined {
  for (let dir = from; ; dir = dir.includes('/node_modules/') ? dir.slice(0, dir.lastIndexOf('/node_modules/')) : '') {
    const hit = lock.packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]?.version;
    if (hit || !dir) return hit;
  }
}

/** The package folder that depends on `sdk`: `at` itself, or one of its own dependencies (the OpenAI
 *  Agents SDK's MCP client is in its agents-core package), or none (a bundled SDK). */
function dependent(at: string, sdk: string): string | undefined {
  const wants = (p: string) => {
    const entry = lock.packages[p] ?? {};
    return [entry.dependencies, entry.optionalDependencies, entry.peerDependencies].some((d) => d?.[sdk] !== undefined);
  };
  if (wants(at)) return at;
  const below = Object.keys(lock.packages[at]?.dependencies ?? {}).map((name) => {
    for (const p of [`${at}/node_modules/${name}`, `node_modules/${name}`]) if (lock.packages[p]) return p;
    return '';
  });
  return below.find((p) => p && wants(p));
}

/** The version of `sdk` a package built into its own dist (mcp-remote does): the bundler leaves the
 *  source path `node_modules/.pnpm/@scope+name@VERSION/` in its comments. */
function bundled(pkg: string, sdk: string): string | undefined {
  const dist = join(CLIENTS, 'node_modules', pkg, 'dist');
  const marker = `${sdk.replace('/', '+')}@`;
  for (const f of readdirSync(dist).filter((x) => x.endsWith('.js'))) {
    const text = readFileSync(join(dist, f), 'utf8');
    const at = text.indexOf(marker);
    if (at >= 0) return /^[\d.]+\d/.exec(text.slice(at + marker.length))?.[0];
  }
}

/** The lowest Node major a package's `engines.node` admits (">=22.13.0" → 22), or 0 when it says none. */
function minNodeMajor(pkg: string): number {
  const installed = join(CLIENTS, 'node_modules', pkg, 'package.json');
  if (!existsSync(installed)) throw new Error(`${pkg} is not installed: run npm ci --prefix examples/clients`);
  const m = /^>=\s*(\d+)/.exec(read(installed).engines?.node ?? '');
  return m ? Number(m[1]) : 0;
}

it('lists each client once, with the fields the audit reads', () => {
  expect(manifest.length).toBeGreaterThanOrEqual(5);
  expect(new Set(manifest.map((e) => e.name)).size).toBe(manifest.length);
  for (const e of manifest) {
    expect(Object.keys(e).sort(), e.name).toEqual(
      ['command', 'defaultTimeoutMs', 'name', 'node', 'notes', 'package', 'registry', 'revisions', 'version', 'wraps'].sort(),
    );
    expect(e.revisions.length, e.name).toBeGreaterThan(0);
    for (const r of e.revisions) expect(['2025-11-25', '2026-07-28'], e.name).toContain(r);
    const file = e.command.split(' ').find((w) => /\.(mjs|py)$/.test(w))!;
    expect(existsSync(join(ROOT, file)), `${e.name}: ${file}`).toBe(true);
    expect(e.node === null, e.name).toBe(!e.command.startsWith('node '));
  }
});

describe.each(npm.map((e) => [e.name, e] as const))('%s', (_name, e) => {
  it('is pinned exactly in examples/clients/package.json and resolved so by its lock file', () => {
    expect(pins[e.package]).toBe(e.version);
    expect(resolved(e.package)).toBe(e.version);
  });

  it('runs on Node 24 exactly when its engines rule out Node 20', () => {
    expect(e.node).toBe(minNodeMajor(e.package) > 20 ? '24' : '20');
  });
});

it.each(npm.filter((e) => e.wraps !== null).map((e) => [e.name, e] as const))(
  '%s wraps the official SDK the lock installs for it (or its dist has built in)',
  (_name, e) => {
    const at = e.wraps!.lastIndexOf('@');
    const [sdk, version] = [e.wraps!.slice(0, at), e.wraps!.slice(at + 1)];
    const from = dependent(`node_modules/${e.package}`, sdk);
    expect(from ? resolved(sdk, from) : bundled(e.package, sdk)).toBe(version);
  },
);

it('the Python client is the version .ci/python-venv.sh installs', () => {
  const python = manifest.filter((e) => e.registry === 'pypi');
  expect(python.map((e) => e.package)).toEqual(['mcp']);
  expect(readFileSync(join(ROOT, '.ci/python-venv.sh'), 'utf8')).toContain(`MCP_VERSION=${python[0]!.version}\n`);
});

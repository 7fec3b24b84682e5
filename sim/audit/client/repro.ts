// `--repro DIR`: for each non-pass of the ecosystem matrix, a folder an implementer can attach to
// their issue tracker as it is: the client's harness (a copy, with the local files it imports),
// repro.mjs (client/repro-script.ts: the official SDK v2 server, a node:http fault proxy, the
// library alone), a package.json pinning the client library, its harness's other packages and the
// server package at the versions this repository installs, and a README saying what the audit saw.
// Nothing of mcp-faultsim: `npm i && node repro.mjs`. Clients from another registry (Python's) are
// listed in DIR/REPROS.md with why they have no folder.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CMD_CLIENT_TIMEOUT_MS } from '../../wire/process/cmd-client.ts';
import type { ClientMatrix, MatrixRow } from './matrix.ts';
import type { ManifestClient } from './manifest.ts';
import { CLIENT_SCENARIOS } from './scenarios.ts';
import { REPRO_SCRIPT } from './repro-script.ts';

/** The file that marks a folder as written by --repro (so a rerun may replace it). */
export const REPRO_INDEX = 'REPROS.md';
const SERVER_PACKAGE = '@modelcontextprotocol/server';

const EXPECTED: Record<string, string> = {
  'never settled': 'the call settles: a result, or an error the caller sees; never pending forever',
  'error at its timeout':
    'a broken response is noticed when it breaks (an error at once, or a resumption), not only at the request timeout',
  'silent empty': 'a result that differs from the fault-free one is never returned without an error',
};

function packageOf(specifier: string): string | null {
  if (specifier.startsWith('node:') || specifier.startsWith('.') || specifier.startsWith('/')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The harness file and the local files it imports (one level is what the shipped harnesses use). */
function harnessFiles(entry: string): { files: string[]; packages: Set<string> } {
  const files = [entry];
  const packages = new Set<string>();
  for (let i = 0; i < files.length; i++) {
    const text = readFileSync(files[i]!, 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)) {
      const spec = m[1]!;
      if (spec.startsWith('./')) {
        const local = join(dirname(files[i]!), spec);
        if (!files.includes(local)) files.push(local);
      } else {
        const p = packageOf(spec);
        if (p) packages.add(p);
      }
    }
  }
  return { files, packages };
}

const depsOf = (path: string): Record<string, string> =>
  existsSync(path) ? ((JSON.parse(readFileSync(path, 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {}) : {};

const slug = (r: MatrixRow) => `${r.client}-${r.revision}-${r.server}-${r.scenario}`.replace(/[^a-z0-9.-]+/gi, '-');

function oneRepro(r: MatrixRow, c: ManifestClient, folder: string, root: string): string | null {
  const words = c.command.split(/\s+/);
  const at = words.findIndex((w) => /\.(m?js)$/.test(w));
  const entry = at < 0 ? undefined : words[at];
  if (c.registry !== 'npm' || !entry) return `a ${c.registry} client: the standalone script drives Node harnesses only`;
  const { files, packages } = harnessFiles(join(root, entry));
  const pinned = { ...depsOf(join(root, 'package.json')), ...depsOf(join(root, dirname(entry), 'package.json')) };
  const dependencies: Record<string, string> = {};
  for (const p of [...packages, SERVER_PACKAGE].sort()) {
    const v = pinned[p];
    if (v === undefined) return `no pinned version of ${p} in this repository's package files`;
    dependencies[p] = v;
  }
  const scenario = CLIENT_SCENARIOS.find((s) => s.name === r.scenario)!;
  const config = {
    client: `${c.package}@${c.version}`,
    revision: r.revision,
    scenario: r.scenario,
    asks: scenario.asks,
    expected: r.broken.map((b) => `${b.requirement} (${b.level}): ${b.text}`).join(' ') || EXPECTED[r.library] || scenario.asks,
    faults: scenario.faults.map((f) =>
      'rpc' in f.on ? { fault: f.fault, on: 'GET', shift: 0 } : { fault: f.fault, on: 'call', shift: f.on.shift ?? 0 },
    ),
    timeoutMs: CMD_CLIENT_TIMEOUT_MS,
    calls: scenario.workload.length,
    /** The harness's own arguments, after its file in the manifest's command. */
    args: words.slice(at + 1),
  };
  mkdirSync(folder, { recursive: true });
  for (const [i, f] of files.entries()) copyFileSync(f, join(folder, i === 0 ? 'harness.mjs' : basename(f)));
  const engines = { node: c.node === '24' ? '>=22' : '>=20' };
  const pkg = {
    name: `repro-${slug(r).toLowerCase()}`,
    private: true,
    type: 'module',
    engines,
    scripts: { repro: 'node repro.mjs' },
    dependencies,
  };
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(join(folder, 'repro.mjs'), REPRO_SCRIPT.replace('__CONFIG__', JSON.stringify(config, null, 2)));
  const readme = [
    `# ${c.package}@${c.version}: ${r.scenario} (${r.revision})`,
    '',
    scenario.asks,
    '',
    `Run: \`npm i && node repro.mjs\` (Node ${engines.node}). It serves the official MCP SDK v2 server (${SERVER_PACKAGE}@${dependencies[SERVER_PACKAGE]}) on 127.0.0.1, puts a fault proxy in front of it that does \`${config.faults.map((f) => f.fault).join(', ')}\` once, and drives the client library through \`harness.mjs\` (its public API, JSON lines on stdin/stdout): one connect, then ${config.calls} calls in sequence, no retry, no reconnect. It prints every request the proxy saw and how each call ended.`,
    '',
    `What mcp-faultsim saw (against the ${r.server === 'model' ? 'model server' : 'SDK v2 server'}, library alone): **${r.library}**: ${r.libraryWhy}`,
    '',
    `Evidence: ${r.libraryEvidence}`,
    '',
    ...r.broken.map((b) => `Breaks \`${b.requirement}\` (${b.level}): “${b.text}” — ${b.detail}\n`),
    `Expected: ${config.expected}`,
    '',
  ];
  writeFileSync(join(folder, 'README.md'), readme.join('\n'));
  return null;
}

/** Writes DIR (replaced whole: the caller checked it is empty or an earlier --repro's); returns each row's folder. */
export function writeRepros(m: ClientMatrix, dir: string, root: string): Map<MatrixRow, string> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const written = new Map<MatrixRow, string>();
  const index = [
    '# Standalone reproductions',
    '',
    `From \`mcp-faultsim audit --clients ${m.manifest}\`: one folder per non-pass; in each, \`npm i && node repro.mjs\`.`,
    '',
  ];
  for (const r of m.rows.filter((x) => x.nonPass)) {
    const c = m.clients.find((x) => x.name === r.client)!;
    const folder = join(dir, slug(r));
    const skipped = oneRepro(r, c, folder, root);
    if (skipped)
      index.push(`- ${r.client} ${r.revision} ${r.server} \`${r.scenario}\`: no folder (${skipped}); reproduce with \`${r.reproduce}\``);
    else {
      written.set(r, folder);
      index.push(`- [${slug(r)}](${slug(r)}/README.md): ${r.library}, agent ${r.agent}`);
    }
  }
  writeFileSync(join(dir, REPRO_INDEX), `${index.join('\n')}\n`);
  return written;
}

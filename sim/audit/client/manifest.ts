// The client manifest (examples/clients/clients.json): which client libraries the ecosystem audit
// runs, in which revisions, by which command. A JSON array of
//   { name, package, version, revisions: [R…], command, node: "20" | "24" | null, wraps, notes, registry?,
//     defaultTimeoutMs: N | null }
// `defaultTimeoutMs` declares the library's own default request timeout for a tools/call (null: it has
// none); the library verdict runs with it and prints it, and test/examples/clients checks it against
// the installed library.
// `node: "24"` runs the command's `node` as the Node 24 the project installs for CI
// (.ci/node24/node_modules/.bin/node, from the repository's root). Every error is one line.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Revision } from '../../../models/policies.ts';

export interface ManifestClient {
  name: string;
  package: string;
  version: string;
  revisions: Revision[];
  /** As written in the manifest (run from the repository's root). */
  command: string;
  node: '20' | '24' | null;
  wraps: string | null;
  notes: string;
  registry: 'npm' | 'pypi';
  /** The library's default tools/call timeout, ms; null: none. */
  defaultTimeoutMs: number | null;
}

export class ManifestError extends Error {
  override name = 'ManifestError';
}

/** Where the Node 24 binary is, relative to the repository's root. */
export const NODE24 = '.ci/node24/node_modules/.bin/node';
const REVISIONS: readonly Revision[] = ['2025-11-25', '2026-07-28'];

function field(entry: Record<string, unknown>, at: string, key: string, kind: 'string' | 'string|null'): string | null {
  const v = entry[key];
  if (typeof v === 'string' && v.trim() !== '') return v;
  if (kind === 'string|null' && (v === null || v === undefined)) return null;
  throw new ManifestError(`${at}: "${key}" must be a non-empty string${kind === 'string|null' ? ' or null' : ''}`);
}

function parseEntry(raw: unknown, i: number): ManifestClient {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ManifestError(`entry ${i}: not an object`);
  const e = raw as Record<string, unknown>;
  const name = field(e, `entry ${i}`, 'name', 'string')!;
  const at = `entry ${i} (${name})`;
  if (!/^[a-z0-9][a-z0-9._-]*$/i.test(name)) throw new ManifestError(`${at}: "name" may hold only letters, digits, '.', '_' and '-'`);
  const revisions = e.revisions;
  if (!Array.isArray(revisions) || revisions.length === 0) throw new ManifestError(`${at}: "revisions" must be a non-empty array`);
  for (const r of revisions)
    if (!REVISIONS.includes(r as Revision))
      throw new ManifestError(`${at}: unknown revision ${JSON.stringify(r)} (valid: ${REVISIONS.join(', ')})`);
  const node = e.node ?? null;
  if (node !== null && node !== '20' && node !== '24') throw new ManifestError(`${at}: "node" must be "20", "24" or null`);
  const timeout = e.defaultTimeoutMs;
  if (timeout !== null && !(Number.isInteger(timeout) && (timeout as number) > 0))
    throw new ManifestError(`${at}: "defaultTimeoutMs" must be the library's default request timeout in ms, or null for none`);
  const registry = e.registry ?? 'npm';
  if (registry !== 'npm' && registry !== 'pypi') throw new ManifestError(`${at}: "registry" must be "npm" or "pypi"`);
  return {
    name,
    package: field(e, at, 'package', 'string')!,
    version: field(e, at, 'version', 'string')!,
    revisions: [...new Set(revisions as Revision[])],
    command: field(e, at, 'command', 'string')!,
    node,
    wraps: field(e, at, 'wraps', 'string|null'),
    notes: typeof e.notes === 'string' ? e.notes : (field(e, at, 'notes', 'string|null') ?? ''),
    registry,
    defaultTimeoutMs: timeout as number | null,
  };
}

/** The manifest's clients, or a ManifestError naming what is wrong (unreadable, not JSON, a missing field). */
export function readManifest(path: string): ManifestClient[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ManifestError(`cannot read the client manifest ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ManifestError(`${path} is not JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(json) || json.length === 0) throw new ManifestError(`${path}: the manifest must be a non-empty JSON array of clients`);
  const clients = json.map((raw, i) => {
    try {
      return parseEntry(raw, i);
    } catch (e) {
      if (e instanceof ManifestError) throw new ManifestError(`${path}: ${e.message}`);
      throw e;
    }
  });
  const seen = new Set<string>();
  for (const c of clients) {
    if (seen.has(c.name)) throw new ManifestError(`${path}: two clients are named '${c.name}'`);
    seen.add(c.name);
  }
  return clients;
}

/** The manifest entry whose command is this one (as written, or as it runs), if any. */
export function entryOfCommand(clients: readonly ManifestClient[], command: string, root: string): ManifestClient | undefined {
  const norm = (c: string) => c.trim().replace(/\s+/g, ' ');
  return clients.find((c) => {
    if (norm(c.command) === norm(command)) return true;
    try {
      return norm(resolvedCommand(c, root)) === norm(command);
    } catch {
      return false;
    }
  });
}

/** The command as it runs: with `node: "24"`, its leading `node` is the Node 24 binary (root: the repository). */
export function resolvedCommand(c: ManifestClient, root: string): string {
  if (c.node !== '24') return c.command;
  const node24 = join(root, NODE24);
  if (!existsSync(node24)) throw new ManifestError(`${c.name} runs on Node 24, and ${node24} is missing: run npm ci --prefix .ci/node24`);
  if (!/^node\s/.test(c.command)) throw new ManifestError(`${c.name}: "node": "24" needs a command that starts with node`);
  return `${NODE24} ${c.command.replace(/^node\s+/, '')}`;
}

// What dist/ was compiled from, as one digest: every code file of the folders tsconfig.build.json
// compiles (tests among them: hashing more than the build reads only costs a rebuild), the build
// script, the two tsconfigs, the lock file and the compiler's version. `npm run build` writes it
// beside the output (scripts/build.mjs), and bin/mcp-faultsim.js runs dist/ in a checkout only while the sources
// still give that digest: the compiled CLI starts in about half the time of the TypeScript loader
// (tsx in every thread), and an edited source is never run stale. Plain JavaScript, shipped in
// bin/: in an installed package there are no sources and nothing here runs.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the build writes the digest of what it compiled. */
export const DIGEST_FILE = join('dist', '.build-digest');

const CODE = /\.(?:[cm]?ts|[cm]?js|tsx|jsx)$/;

/** tsconfig.build.json's `include`; its comments are whole lines of `//` (biome keeps them so). */
function included(root) {
  const text = readFileSync(join(root, 'tsconfig.build.json'), 'utf8');
  const config = JSON.parse(
    text
      .split('\n')
      .filter((l) => !/^\s*\/\//.test(l))
      .join('\n'),
  );
  if (!Array.isArray(config.include)) throw new Error('tsconfig.build.json has no include list');
  return config.include;
}

function codeFiles(root, entry, out) {
  const path = join(root, entry);
  if (!existsSync(path)) return;
  const stack = [entry];
  while (stack.length > 0) {
    const rel = stack.pop();
    const full = join(root, rel);
    let dirents;
    try {
      dirents = readdirSync(full, { withFileTypes: true });
    } catch {
      if (CODE.test(rel)) out.push(rel); // a file named in the include list
      continue;
    }
    for (const d of dirents) {
      const child = join(rel, d.name);
      if (d.isDirectory()) stack.push(child);
      else if (d.isFile() && CODE.test(d.name)) out.push(child);
    }
  }
}

/** The files the digest covers, relative to `root`, sorted. */
export function buildInputs(root) {
  const files = ['scripts/build.mjs', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
  for (const entry of included(root)) codeFiles(root, entry, files);
  return [...new Set(files)].sort();
}

/** The digest of the sources at `root` (hex), or null when they cannot be read as a build's inputs. */
export function buildDigest(root) {
  try {
    const hash = createHash('sha256');
    const compiler = JSON.parse(readFileSync(join(root, 'node_modules', 'typescript', 'package.json'), 'utf8')).version;
    hash.update(`typescript ${compiler}\0`);
    for (const rel of buildInputs(root)) {
      // A settings file the checkout lacks counts as absent (a checkout of another layout).
      const body = existsSync(join(root, rel)) ? readFileSync(join(root, rel)) : null;
      hash.update(body === null ? `${rel}\0absent\0` : `${rel}\0${body.length}\0`);
      if (body) hash.update(body);
    }
    return hash.digest('hex');
  } catch {
    return null;
  }
}

/** Whether dist/ was built from the sources as they are now. */
export function distIsFresh(root) {
  let recorded;
  try {
    recorded = readFileSync(join(root, DIGEST_FILE), 'utf8').trim();
  } catch {
    return false;
  }
  return recorded !== '' && recorded === buildDigest(root);
}

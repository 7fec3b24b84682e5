// The resolve hook bench/compiled-code.mjs registers: a module of the package's sources (models/,
// sim/, properties/, reports/ as .ts) resolves to its compiled twin in dist/ (.js), which the CLI
// runs; anything else (the bench's own files, a source tsc does not compile) is left as resolved.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let root = '';

export function initialize(data) {
  root = data.root;
}

const COMPILED = /^(models|sim|properties|reports)\/.*\.ts$/;

/** The dist/ URL of the source module at `url` (under `root`, a file URL ending in '/'), or null. */
export function compiledUrl(url, rootUrl) {
  if (!url.startsWith(rootUrl)) return null;
  const rel = url.slice(rootUrl.length);
  if (!COMPILED.test(rel) || rel.endsWith('.test.ts')) return null;
  const twin = `${rootUrl}dist/${rel.slice(0, -3)}.js`;
  return existsSync(fileURLToPath(twin)) ? twin : null;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const twin = compiledUrl(resolved.url, root);
  return twin ? { url: twin, format: 'module', shortCircuit: true } : resolved;
}

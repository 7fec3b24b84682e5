// The generated sections of docs/: each sits between `<!-- NAME:begin -->` and `<!-- NAME:end -->`
// in one file, and its command (`npm run bench:docs`, `wire:docs`, `migration:docs`, `audit:docs`)
// rewrites what is between the markers from a real run, leaving the rest of the file as it was.
// The file is replaced by a rename, so an interrupted write never leaves half a page.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

export class DocsBlockError extends Error {}

/** `text` between the file's NAME markers (the markers kept); the file must have both, in order. */
export function replaceBlock(path: string, name: string, text: string): void {
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  let page: string;
  try {
    page = readFileSync(path, 'utf8');
  } catch {
    throw new DocsBlockError(`cannot read ${path}`);
  }
  const start = page.indexOf(begin);
  const stop = page.indexOf(end, start);
  if (start < 0 || stop < 0) throw new DocsBlockError(`${path} has no ${begin} … ${end} markers`);
  const body = text.endsWith('\n') ? text : `${text}\n`;
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, `${page.slice(0, start)}${begin}\n\n${body}\n${page.slice(stop)}`);
  renameSync(tmp, path);
}

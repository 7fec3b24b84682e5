// Where a comparison lands on disk: compare.json, compare.md, compare.html and one counterexample
// file per finding under --out, swapped in as one set (cli/files.ts). A shard writes its JSON only, with every
// history: `merge` renders the reports from all shards.
import { join } from 'node:path';
import { renderHtml } from '../../reports/compare-html.ts';
import { renderJson, writeComparisonJson } from '../../reports/compare-json.ts';
import { renderMarkdown } from '../../reports/compare-markdown.ts';
import { writeJson } from '../../reports/json-format.ts';
import type { Comparison } from '../compare/compare.ts';
import { counterexampleFile } from '../corpus/counterexample-file.ts';
import { checkOutDir, replaceFolder, writeAtomic, type FileContent } from './files.ts';

export const DEFAULT_OUT = 'out';

/** The names a report set owns in --out; anything else there is the user's and is kept. */
const OWN = new Set(['compare.json', 'compare.md', 'compare.html', 'counterexamples']);

export function writeReports(c: Comparison, out: string, details: number): string[] {
  checkOutDir(out);
  if (c.shard) {
    const path = join(out, 'compare.json');
    writeAtomic(path, renderJson(c, Number.POSITIVE_INFINITY));
    return [path];
  }
  // Each file is made when its turn comes and written in pieces: the whole set is never in memory.
  const files = new Map<string, FileContent>([
    ['compare.json', (write) => writeComparisonJson(c, details, write)],
    ['compare.md', (write) => write(renderMarkdown(c, details))],
    ['compare.html', (write) => write(renderHtml(c, details))],
    ['counterexamples/', ''],
  ]);
  for (const f of c.findings)
    files.set(`counterexamples/${f.id}.json`, (write) => {
      writeJson(counterexampleFile(f, c.policies), write);
      write('\n');
    });
  // One swap for the whole set: a reader never sees this run's findings beside the last run's reports.
  replaceFolder(out, files, (name) => !OWN.has(name));
  const written = [join(out, 'compare.json'), join(out, 'compare.md'), join(out, 'compare.html')];
  return [...written, `${join(out, 'counterexamples')}/ (${c.findings.length} files)`];
}

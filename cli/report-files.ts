// Where a comparison lands on disk: compare.json, compare.md, compare.html and one counterexample
// file per finding under --out, each written atomically. A shard writes its JSON only, with every
// history: `merge` renders the reports from all shards.
import { join } from 'node:path';
import { renderHtml } from '../reports/compare-html.ts';
import { renderJson } from '../reports/compare-json.ts';
import { renderMarkdown } from '../reports/compare-markdown.ts';
import { formatJson } from '../reports/json-format.ts';
import type { Comparison } from '../compare/compare.ts';
import { counterexampleFile } from '../corpus/counterexample-file.ts';
import { replaceFolder, writeAtomic } from './files.ts';

export const DEFAULT_OUT = 'reports/out';

export function writeReports(c: Comparison, out: string, details: number): string[] {
  if (c.shard) {
    const path = join(out, 'compare.json');
    writeAtomic(path, renderJson(c, Number.POSITIVE_INFINITY));
    return [path];
  }
  const files = new Map(c.findings.map((f) => [`${f.id}.json`, `${formatJson(counterexampleFile(f, c.policies))}\n`]));
  replaceFolder(join(out, 'counterexamples'), files);
  const written = [join(out, 'compare.json'), join(out, 'compare.md'), join(out, 'compare.html')];
  writeAtomic(written[0]!, renderJson(c, details));
  writeAtomic(written[1]!, renderMarkdown(c, details));
  writeAtomic(written[2]!, renderHtml(c, details));
  return [...written, `${join(out, 'counterexamples')}/ (${files.size} files)`];
}

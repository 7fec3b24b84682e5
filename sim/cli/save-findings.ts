// `check --save`: each finding of a check becomes a counterexample file in the corpus
// (test/corpus/ by default), named by its property and a hash of its input, so that saving
// the same finding twice writes the same file once.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatJson } from '../../reports/json-format.ts';
import { counterexampleFile } from '../corpus/counterexample-file.ts';
import { savedWorld, type Finding } from '../compare/findings.ts';
import { DEFAULT_WORLD } from '../world/options.ts';
import { writeAtomic } from './files.ts';
import { slug } from '../compare/matrix.ts';
import { DEFAULT_CLIENT, DEFAULT_SERVER, type Combination } from '../../models/policies.ts';

/** The knobs that differ from the defaults: what tells one saved finding from another. */
function nonDefaults(c: Combination): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(c.server)) if (v !== (DEFAULT_SERVER as unknown as Record<string, unknown>)[k]) out.push(`${k} ${v}`);
  for (const [k, v] of Object.entries(c.client)) {
    const d = (DEFAULT_CLIENT as unknown as Record<string, unknown>)[k];
    if (JSON.stringify(v) !== JSON.stringify(d)) out.push(`${k} ${Array.isArray(v) ? v.join('+') || 'none' : v}`);
  }
  return out.join(' ');
}

export const DEFAULT_CORPUS = 'test/corpus';

export function saveFindings(
  findings: readonly Finding[],
  dir: string,
  policies: string[],
): { path: string; status: 'added' | 'unchanged' }[] {
  return findings.map((f) => {
    // Other world options make another finding of the same input (default options keep the names
    // saved before them).
    const world = JSON.stringify(f.world) === JSON.stringify(savedWorld(DEFAULT_WORLD)) ? [] : [f.world];
    const key = JSON.stringify([f.combination, f.plan, f.workload, f.schedule, ...world]);
    const hash = createHash('sha256').update(key).digest('hex').slice(0, 10);
    const id = `${f.properties[0]!.property}--${slug(nonDefaults(f.combination)) || 'defaults'}--${hash}`;
    const text = `${formatJson(counterexampleFile({ ...f, id, cellName: '' }, policies))}\n`;
    const path = join(dir, `${id}.json`);
    if (existsSync(path) && readFileSync(path, 'utf8') === text) return { path, status: 'unchanged' };
    writeAtomic(path, text);
    return { path, status: 'added' };
  });
}

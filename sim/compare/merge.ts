// Joining shard results (`compare --shard i/n`) into the comparison an unsharded run would have
// produced: the same cells and findings in matrix order, so the reports come out identical
// outside `timing`. Shards must come from the same settings and together cover the matrix; each is
// read through a schema (compare/comparison-schema.ts) so a malformed one is one line, exit 2.
import { parseWith } from '../core/schema-issue.ts';
import { migrationRows } from './migration.ts';
import { recommend } from './recommendation.ts';
import { numberedCauseGroups } from './causes.ts';
import { fixesByGroup } from './fixes.ts';
import type { Comparison } from './compare.ts';
import { comparisonSchema } from './comparison-schema.ts';

export class BadMerge extends Error {}

const SAME = ['format', 'version', 'tool', 'seed', 'runs', 'properties', 'matrix', 'policies'] as const;

export function parseComparison(text: string, name: string): Comparison {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new BadMerge(`${name}: not valid JSON (${(e as Error).message.split('\n')[0]}); the file may be truncated`);
  }
  const c = raw as Partial<Comparison> | null;
  if (!c || typeof c !== 'object' || c.format !== 'mcp-faultsim/compare') throw new BadMerge(`${name}: not a compare.json file`);
  if (c.version !== 1)
    throw new BadMerge(`${name}: compare format version ${JSON.stringify(c.version ?? null)} is not supported (expected 1)`);
  const parsed = parseWith(comparisonSchema, c);
  if (!parsed.ok) throw new BadMerge(`${name}: ${parsed.message}`);
  if (c.findings!.some((f) => f.history === null))
    throw new BadMerge(`${name}: its findings lack histories (write shards with --shard, which keeps them all)`);
  return c as Comparison;
}

export function merge(parts: readonly { name: string; comparison: Comparison }[]): Comparison {
  if (parts.length === 0) throw new BadMerge('merge needs at least one compare.json');
  const first = parts[0]!.comparison;
  for (const { name, comparison } of parts.slice(1)) {
    for (const k of SAME) {
      if (JSON.stringify(comparison[k]) !== JSON.stringify(first[k]))
        throw new BadMerge(`${name}: its ${k} differs from ${parts[0]!.name}'s; shards must come from the same compare settings`);
    }
  }
  const count = first.shard?.count ?? 1;
  const seen = new Map<number, string>();
  for (const { name, comparison } of parts) {
    if ((comparison.shard?.count ?? 1) !== count)
      throw new BadMerge(`${name}: shard count ${comparison.shard?.count ?? 1} differs from ${parts[0]!.name}'s ${count}`);
    const index = comparison.shard?.index ?? 1;
    if (seen.has(index)) throw new BadMerge(`${name}: shard ${index}/${count} is also given as ${seen.get(index)}`);
    seen.set(index, name);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length) throw new BadMerge(`missing shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')}`);
  const cells = parts.flatMap((p) => p.comparison.cells).sort((a, b) => a.index - b.index);
  const findings = parts
    .flatMap((p) => p.comparison.findings.map((f, i) => ({ f, i })))
    .sort((a, b) => a.f.cellIndex - b.f.cellIndex || a.i - b.i)
    .map(({ f }) => f);
  const interrupted = parts.some((p) => p.comparison.interrupted);
  const causes = numberedCauseGroups(findings);
  if (!interrupted && cells.length !== first.matrix.size)
    throw new BadMerge(`the shards hold ${cells.length} cells, the matrix has ${first.matrix.size}`);
  return {
    format: first.format,
    version: first.version,
    tool: first.tool,
    seed: first.seed,
    runs: first.runs,
    properties: first.properties,
    matrix: first.matrix,
    policies: first.policies,
    interrupted,
    recommendation: recommend({ matrix: first.matrix, seed: first.seed, runs: first.runs, interrupted, cells, findings, causes }),
    cells,
    findings,
    causes,
    fixes: fixesByGroup(findings, causes),
    ...(first.matrix.kind === 'migration' ? { migration: migrationRows(cells) } : {}),
    timing: { shards: parts.map((p) => ({ file: p.name, shard: p.comparison.shard ?? null, ...p.comparison.timing })) },
  };
}

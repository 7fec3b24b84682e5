// Regenerates the parts of docs/ that the default comparison decides (`npm run compare:docs`): runs
// `mcp-faultsim compare --quiet` as a user runs it and writes each block of bench/compare-docs-blocks.ts
// between its `<!-- NAME:begin -->` and `<!-- NAME:end -->` markers. test/docs/compare-docs.test.ts
// fails until this has been run after a change that moves them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Comparison } from '../sim/compare/compare.ts';
import { COMPARE_BLOCKS } from './compare-docs-blocks.ts';
import { replaceBlock } from './docs-block.ts';

const out = mkdtempSync(join(tmpdir(), 'mcp-faultsim-compare-docs-'));
try {
  const r = spawnSync(process.execPath, ['bin/mcp-faultsim.js', 'compare', '--quiet', '--out', out], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`compare: exit ${r.status}: ${r.stderr}`);
  const comparison = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as Comparison;
  for (const [name, { page, make }] of Object.entries(COMPARE_BLOCKS)) {
    replaceBlock(page, name, make(comparison));
    process.stdout.write(`${page}: ${name}\n`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}

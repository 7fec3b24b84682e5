// The golden outputs the structure work must not change: `compare` (default matrix, seed 3),
// `compare --depth 2`, and `check --json` of every seed cell, as produced on main before the
// refactor (c1f4702). `npx tsx test/golden/golden.ts --write` regenerates them; the golden test
// runs the same commands and requires identical JSON outside `timing`.
// Regenerated after issue 29 and issue 30, with no verdict, class, shrunk plan or minimality changed:
// the two protocol changes that break the fault-free run moved from `mitigations` to `wouldBreak`, each
// finding gained `pairs`, at-most-once-only causes read `duplicate-execution`, and the client statechart
// has one more transition (the spec-literal client's `keepsSession`, unreached here).
// Regenerated for issue 39: compare's JSON gained `recommendation` (before `cells`) and `causes` (after
// `findings`); every key it had before is unchanged.
// Regenerated after issue 37 item 7, with no verdict, violation count or shrunk plan changed: the model
// client of 2025-11-25 sends MCP-Protocol-Version after initialize (a client MUST), so the requests in
// the findings' histories carry it, `strip-header:mcp-protocol-version` now acts in 2025-11-25 cells
// (its fire counts appear), and each compare reaches one more state.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { formatClient, formatServer } from '../../models/policies.ts';
import { main } from '../../sim/cli/main.ts';
import { SEED_CELLS } from '../../sim/core/cells.ts';

export const GOLDEN_DIR = new URL('.', import.meta.url).pathname;

export interface GoldenCase {
  file: string;
  argv: string[];
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function goldenCases(): GoldenCase[] {
  const out = () => mkdtempSync(join(tmpdir(), 'mcp-faultsim-golden-'));
  return [
    { file: 'compare-seed-3.json', argv: ['compare', '--seed', '3', '--json', '--quiet', '--out', out()] },
    { file: 'compare-depth-2.json', argv: ['compare', '--depth', '2', '--workers', '1', '--json', '--quiet', '--out', out()] },
    ...SEED_CELLS.map((c) => ({
      file: `check-${slug(c.name)}.json`,
      argv: [
        'check',
        '--server',
        formatServer(c.combination.server),
        '--client',
        formatClient(c.combination.client),
        '--faults',
        c.faults.join(','),
        '--json',
        '--quiet',
      ],
    })),
  ];
}

/** The command's JSON with every `timing` key removed (wall-clock figures differ run to run). */
export function withoutTiming(json: string): unknown {
  return JSON.parse(json, (k, v) => (k === 'timing' ? undefined : v));
}

export async function runGolden(c: GoldenCase): Promise<{ code: number; json: unknown; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (f: (s: string) => void) => new Writable({ write: (chunk, _e, cb) => (f(String(chunk)), cb()) });
  const code = await main(
    c.argv,
    sink((s) => (stdout += s)),
    sink((s) => (stderr += s)),
  );
  return { code, json: stdout ? withoutTiming(stdout) : null, stderr };
}

export function readGolden(file: string): { code: number; json: unknown } {
  return JSON.parse(readFileSync(join(GOLDEN_DIR, file), 'utf8'));
}

if (process.argv.includes('--write')) {
  for (const c of goldenCases()) {
    const { code, json, stderr } = await runGolden(c);
    if (stderr) process.stderr.write(stderr);
    writeFileSync(join(GOLDEN_DIR, c.file), `${JSON.stringify({ code, json }, null, 1)}\n`);
    process.stdout.write(`${c.file}: exit ${code}\n`);
  }
}

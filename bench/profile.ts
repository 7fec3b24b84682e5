// `npm run bench:profile [-- SESSIONS [judged]]`: where the engine's time goes. Runs the benchmark's
// fixed session under `node --cpu-prof --import tsx` (recorded, or `judged`: history-free and judged
// as `check` judges a sampled run), then sums the profile's self time by source file and by
// function, our code only (module loading, tsx and node internals summed as "other"). The package's
// code runs compiled where dist/ is fresh, as the bench measures it (bench/compiled-code.mjs), and is
// named by its sources.
// `npm run bench:profile -- explore [DEPTH]` does the same for exhaustive exploration (the seed
// cells to DEPTH, default 4, in one thread: bench/profile-explore.ts). `npm run bench:profile -- cells
// [PASSES]`: the sampled runs of the default compare's cells, PASSES times (default 1, cold, as compare
// runs them: bench/profile-cells.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { table } from '../reports/table.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const root = fileURLToPath(new URL('..', import.meta.url));
/** A file of dist/ by its source's name (the profile runs the compiled code where dist/ is fresh: bench/compiled-code.mjs). */
const sourceOf = (file: string) => (file.startsWith('dist/') ? file.slice(5).replace(/\.js(\?|$)/, '.ts$1') : file);
const explore = process.argv[2] === 'explore';
const cells = process.argv[2] === 'cells';
const sessions = explore ? (process.argv[3] ?? '4') : cells ? (process.argv[3] ?? '1') : (process.argv[2] ?? '200000');
const judged = !explore && !cells && process.argv[3] === 'judged';
const dir = mkdtempSync(join(tmpdir(), 'mcp-faultsim-profile-'));
try {
  execFileSync(
    process.execPath,
    [
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      '--import',
      'tsx',
      '--import',
      './bench/compiled-code.mjs',
      explore ? 'bench/profile-explore.ts' : cells ? 'bench/profile-cells.ts' : 'bench/profile-engine.ts',
      sessions,
      ...(judged ? ['judged'] : []),
    ],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const { url, functionName } = byId.get(id)!.callFrame;
    const ours = url.startsWith(`file://${root}`) && !url.includes('node_modules');
    const where =
      functionName === '(garbage collector)'
        ? 'garbage collector'
        : ours
          ? sourceOf(url.slice(`file://${root}`.length))
          : 'other (node, tsx, module loading)';
    byFile.set(where, (byFile.get(where) ?? 0) + dt);
    if (ours)
      byFunction.set(
        `${functionName || '(anonymous)'}  ${where}`,
        (byFunction.get(`${functionName || '(anonymous)'}  ${where}`) ?? 0) + dt,
      );
  });
  const what = judged ? ', history-free and judged' : '';
  const pct = (x: number) => `${((x / total) * 100).toFixed(1)}%`;
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, t]) => [name, pct(t)]);
  process.stdout.write(
    explore
      ? `CPU profile of the seed cells' exhaustive exploration to depth ${sessions} (one thread), self time\n\n`
      : cells
        ? `CPU profile of the default compare's sampled runs, ${sessions} pass(es) over its cells (one thread), self time\n\n`
        : `CPU profile of ${Number(sessions).toLocaleString('en-US')} sessions (bench/engine.ts's fixed session${what}), self time\n\n`,
  );
  process.stdout.write(`${table(['file', 'self time'], top(byFile, 20), ['l', 'r'])}\n\n`);
  process.stdout.write(`${table(['function', 'self time'], top(byFunction, 25), ['l', 'r'])}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// `npm run bench:profile [-- SESSIONS [judged]]`: where the engine's time goes. Runs the benchmark's
// fixed session under `node --cpu-prof --import tsx` (recorded, or `judged`: history-free and judged
// as `check` judges a sampled run), then sums the profile's self time by part of the code
// (bench/code-parts.ts), by source file and by function, our code only (module loading, tsx and node
// internals summed as "other"). The package's code runs compiled where dist/ is fresh, as the bench
// measures it (bench/compiled-code.mjs), and is named by its sources.
// `npm run bench:profile -- explore [DEPTH]` does the same for exhaustive exploration (the seed
// cells to DEPTH, default 4, in one thread: bench/profile-explore.ts). `npm run bench:profile -- cells
// [PASSES]`: the sampled runs of the default compare's cells, PASSES times (default 1, cold, as compare
// runs them: bench/profile-cells.ts).
import { fileURLToPath } from 'node:url';
import { table } from '../reports/table.ts';
import { ELSEWHERE, GC_PART, PartSums, sourceOfUrl } from './code-parts.ts';
import { forEachSelfTime, profiledRun } from './cpu-profile.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const explore = process.argv[2] === 'explore';
const cells = process.argv[2] === 'cells';
const sessions = explore ? (process.argv[3] ?? '4') : cells ? (process.argv[3] ?? '1') : (process.argv[2] ?? '200000');
const judged = !explore && !cells && process.argv[3] === 'judged';
const script = explore ? 'bench/profile-explore.ts' : cells ? 'bench/profile-cells.ts' : 'bench/profile-engine.ts';
const { profiles } = profiledRun(
  ['--import', 'tsx', '--import', './bench/compiled-code.mjs', script, sessions, ...(judged ? ['judged'] : [])],
  root,
  { show: true },
);
const byPart = new PartSums(root);
const byFile = new Map<string, number>();
const byFunction = new Map<string, number>();
let total = 0;
const add = (m: Map<string, number>, key: string, us: number) => m.set(key, (m.get(key) ?? 0) + us);
for (const p of profiles)
  forEachSelfTime(p, (frame, us) => {
    const { functionName, url } = frame;
    total += us;
    const part = byPart.add(frame, us);
    const file = sourceOfUrl(url, root);
    add(byFile, part === GC_PART ? 'garbage collector' : (file ?? `other (${ELSEWHERE})`), us);
    if (file !== null && part !== GC_PART) add(byFunction, `${functionName || '(anonymous)'}  ${file}`, us);
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
process.stdout.write(
  `${table(
    ['part', 'self time'],
    byPart.shares().map((s) => [s.part, `${s.share.toFixed(1)}%`]),
    ['l', 'r'],
  )}\n\n`,
);
process.stdout.write(`${table(['file', 'self time'], top(byFile, 20), ['l', 'r'])}\n\n`);
process.stdout.write(`${table(['function', 'self time'], top(byFunction, 25), ['l', 'r'])}\n`);

// `--only parts`: where the time goes, by part of the code (bench/code-parts.ts), for the figures issue
// 40's targets judge: the engine's history-off session (as `check` runs and judges a sampled run;
// bench/profile-engine.ts under --cpu-prof) and the CLI's check and explore on the command lines the
// against section rates (bench/against.ts), under --cpu-prof, every thread. Self time: a sample counts
// for the function it was taken in. (Where that session's bytes go is the engine section's: it
// measures them.) The targets a part holds back name it (bench/targets.ts).
import { fileURLToPath } from 'node:url';
import { AGAINST_CHECK, AGAINST_EXPLORE } from './against.ts';
import { PartSums, type PartShare } from './code-parts.ts';
import { forEachSelfTime, profiledRun } from './cpu-profile.ts';
import { note } from './measure.ts';

export interface PartsProfile {
  /** What ran, as a command a person can run again. */
  command: string;
  /** Self time by part, as shares of the whole, largest first. */
  shares: PartShare[];
}

export interface PartsFigures {
  engineCpu: PartsProfile;
  check: PartsProfile;
  explore: PartsProfile;
}

const root = fileURLToPath(new URL('..', import.meta.url));

function cpuByPart(argv: readonly string[], exits: number[]): PartShare[] {
  const sums = new PartSums(root);
  for (const p of profiledRun(argv, root, { exits }).profiles) forEachSelfTime(p, (frame, us) => sums.add(frame, us));
  return sums.shares();
}

/** The CLI on `args` (every thread, exit 0 or 1: a violation found is an answer too). */
function cliByPart(args: readonly string[]): PartsProfile {
  return { command: `node --cpu-prof bin/mcp-faultsim.js ${args.join(' ')}`, shares: cpuByPart(['bin/mcp-faultsim.js', ...args], [0, 1]) };
}

export function measureParts(quick: boolean): PartsFigures {
  const sessions = quick ? 50_000 : 200_000;
  note(`parts: the engine's history-off session, ${sessions.toLocaleString('en-US')} times under --cpu-prof`);
  const engineArgs = ['--import', 'tsx', '--import', './bench/compiled-code.mjs', 'bench/profile-engine.ts', `${sessions}`, 'judged'];
  const engineCpu = { command: `npm run bench:profile -- ${sessions} judged`, shares: cpuByPart(engineArgs, [0]) };

  note('parts: the check the against section rates, under --cpu-prof');
  const check = cliByPart(AGAINST_CHECK);
  note('parts: the explore the against section rates, under --cpu-prof');
  const explore = cliByPart(AGAINST_EXPLORE);
  return { engineCpu, check, explore };
}

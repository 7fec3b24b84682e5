// One command's throughput on two checkouts, side by side (bench/against.ts): the same command line
// at a big and a small size on each, alternately (A B, then B A, each round), each CLI in its own
// process timed by its own CPU time (user + system, every thread, read as it exits: REPORT_USAGE).
// The rate is the big run's work less the small one's, over the CPU time between them (medians of
// the rounds), so that start-up (c1f4702 runs its sources through tsx) does not read as slowness;
// the whole big run's rate is kept beside it. Each run's answer is compared: a rate over different
// work is no rate.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPORT_USAGE, usageOf } from './compare.ts';
import { median, note, round } from './measure.ts';

/** One command's rate on both commits: the work each run reported and the CPU it took. */
export interface Rate {
  unit: 'sessions' | 'states';
  /** The command (its big run), and the small run's difference (what the start-up is measured by). */
  command: string;
  small: string;
  work: number;
  smallWork: number;
  /** Both commits reported the same work and answer for both sizes. */
  same: boolean;
  here: Side;
  base: Side;
  /** here ÷ base: of the throughput, and of the whole big runs. */
  ratio: number;
  wholeRatio: number;
}

export interface Side {
  /** Medians of the rounds: the big and small runs' CPU seconds. */
  cpuSeconds: number;
  smallCpuSeconds: number;
  perSecond: number;
  wholePerSecond: number;
}

export const ROUNDS = 3;

interface Run {
  cpuSeconds: number;
  stdout: string;
}

/** The CLI of the checkout at `dir` on `args`, in its own process; exit 0 or 1 (a violation). */
export function cli(dir: string, label: string, args: readonly string[]): Run {
  const r = spawnSync(process.execPath, ['--import', REPORT_USAGE, join(dir, 'bin', 'mcp-faultsim.js'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0 && r.status !== 1) {
    const why = (r.stderr ?? '').split('\n').find((l) => l.trim() && !l.startsWith('BENCH-USAGE')) ?? `exit ${r.status}`;
    throw new Error(`${label} ${args.slice(0, 2).join(' ')} … failed: ${why.trim()}`);
  }
  return { cpuSeconds: usageOf(r.stderr).cpuUs / 1e6, stdout: r.stdout };
}

/** What a run reports: its work, and the answer that work gave (compared between the commits). */
export type Reading = (stdout: string) => { work: number; answer: string };
export const checkReading: Reading = (s) => {
  const j = JSON.parse(s) as { runs: number; results: { property: string; verdict: string; reached: number; violations: number }[] };
  return { work: j.runs, answer: JSON.stringify(j.results.map((r) => [r.property, r.verdict, r.reached, r.violations])) };
};
export const exploreReading: Reading = (s) => {
  const j = JSON.parse(s) as { states: number; plans: number; complete: boolean };
  return { work: j.states, answer: JSON.stringify([j.states, j.plans, j.complete]) };
};

/** One command's rate on both checkouts; `size` is the option that makes it big or small. */
export function rate(
  dirs: [string, string],
  labels: [string, string],
  unit: Rate['unit'],
  [head, tail]: [string[], string[]],
  [size, bigValue, smallValue]: [string, number, number],
  read: Reading,
): Rate {
  const big = [...head, size, String(bigValue), ...tail];
  const small = [...head, size, String(smallValue), ...tail];
  const cpu = [
    [[], []],
    [[], []],
  ] as number[][][]; // [side][size][round]
  const seen: string[][] = [[], []];
  const works: number[][] = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 ? [1, 0] : [0, 1]) {
      for (const [size, args] of [big, small].entries()) {
        note(`against: round ${round + 1}/${ROUNDS}, ${labels[side]} ${args[0]} ${size ? 'small' : 'big'}`);
        const r = cli(dirs[side]!, labels[side]!, args);
        const { work, answer } = read(r.stdout);
        cpu[side]![size]!.push(r.cpuSeconds);
        seen[side]!.push(answer);
        works[size]![side] = work;
      }
    }
  }
  const sideOf = (i: number): Side => {
    const whole = median(cpu[i]![0]!);
    const start = median(cpu[i]![1]!);
    return {
      cpuSeconds: round(whole, 2),
      smallCpuSeconds: round(start, 2),
      perSecond: Math.round((works[0]![i]! - works[1]![i]!) / (whole - start)),
      wholePerSecond: Math.round(works[0]![i]! / whole),
    };
  };
  const [here, base] = [sideOf(0), sideOf(1)];
  const same = seen[0]!.join() === seen[1]!.join() && works[0]![0] === works[0]![1] && works[1]![0] === works[1]![1];
  return {
    unit,
    command: `mcp-faultsim ${big.join(' ')}`,
    small: `${size} ${smallValue}`,
    work: works[0]![0]!,
    smallWork: works[1]![0]!,
    same,
    here,
    base,
    ratio: round(here.perSecond / base.perSecond, 2),
    wholeRatio: round(here.wholePerSecond / base.wholePerSecond, 2),
  };
}

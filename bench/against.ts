// `--only against`: this checkout against the earlier commits issue 40 measures itself by, side by
// side in one run, each CLI as a user runs it (bench/against-rate.ts times them):
//  - check sessions/s and explore states/s against c1f4702, on command lines both commits read the
//    same way: knobs, faults and property given explicitly, none that c1f4702 lacks (this checkout's
//    newer knobs stay at their defaults, which behave as c1f4702 did), and each answer compared;
//  - compare --matrix full's CPU against 52c6b3c (the "extra 25%"), twice each, alternately;
//    left out by --no-full-matrix.
// The earlier commits are checked out, installed (npm ci, from the npm registry) and built once, and
// cached under node_modules/.cache/mcp-faultsim-bench/<sha> (bench/checkout.ts): the first run takes
// a few minutes more, later ones none. --quick leaves the section out. A part that cannot run (a
// shallow clone, offline) says why in one line on stderr and in the section; the bench goes on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distIsFresh } from '../bin/build-digest.js';
import { builtCheckout, resolveCommit } from './checkout.ts';
import { cli, exploreReading, checkReading, rate, ROUNDS, type Rate } from './against-rate.ts';
import { median, note, round } from './measure.ts';

export const C1F4702 = 'c1f4702';
export const B52C6B3C = '52c6b3c';

export interface FullMatrix {
  command: string;
  base: string;
  here: number[];
  baseline: number[];
  /** Medians (CPU seconds), and here ÷ base. */
  hereMedian: number;
  baseMedian: number;
  ratio: number;
}

export interface AgainstFigures {
  /** This checkout, as the tables name it, and what its CLI ran (a stale dist/ runs the sources
   *  through tsx, slower: npm run build first); the rounds of check and explore. */
  here: string;
  ran?: 'dist' | 'source';
  rounds: number;
  /** The earlier commits this run checked out and installed (the others came from the cache). */
  installed: string[];
  check: Rate | null;
  explore: Rate | null;
  full: FullMatrix | null;
  /** Why a part was not measured (--quick, a checkout that failed). */
  note?: string;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const FULL_ROUNDS = 2;

/** The records' cells, spelled with the knobs both commits have. The check cell is record 000's
 *  "does not apply" server.reinit=pin-first: its property holds, so every run is one judged session
 *  and nothing is shrunk. The explore cell is the two records' vulnerable cell (the defaults) under
 *  c1f4702's whole vocabulary; `recovers` is never violated there, so the search covers every state. */
const CLIENT = ['--client', 'reconnect=replay-mutable,accept=always,parser=pinned,guards='];
const CHECK = ['check', '--server', 'reinit=pin-first,streaming=negotiated', ...CLIENT, '--faults', 'http-502,config-reset'];
const CHECK_TAIL = ['--property', 'no-silent-empty', '--seed', '1', '--json', '--quiet'];
const VOCABULARY_C1F4702 =
  'http-502,config-reset,strip-header:transfer-encoding,strip-header:accept,strip-header:mcp-session-id,' +
  'strip-header:last-event-id,stream-cut,session-expire,server-restart,delay:1000,delay:40000';
const EXPLORE = ['explore', '--server', 'reinit=honor-last,streaming=negotiated,advertise=static', ...CLIENT];
const EXPLORE_TAIL = ['--faults', VOCABULARY_C1F4702, '--property', 'recovers', '--calls', '2', '--workers', '1', '--json', '--quiet'];

const CHECK_RUNS = 20_000;
const EXPLORE_DEPTH = 3;
/** The check and explore command lines the section rates (this checkout's CLI reads them as
 *  c1f4702's does), whole: the parts section profiles them (bench/parts.ts). */
export const AGAINST_CHECK = [...CHECK, '--runs', `${CHECK_RUNS}`, ...CHECK_TAIL];
export const AGAINST_EXPLORE = [...EXPLORE, '--depth', `${EXPLORE_DEPTH}`, ...EXPLORE_TAIL];

/** compare --matrix full on both checkouts, alternately, CPU seconds of each run. */
function fullMatrix(dirs: [string, string], labels: [string, string]): FullMatrix {
  const runs: number[][] = [[], []];
  for (let round = 0; round < FULL_ROUNDS; round++) {
    for (const side of round % 2 ? [1, 0] : [0, 1]) {
      const out = mkdtempSync(join(tmpdir(), 'mcp-faultsim-bench-against-'));
      note(`against: round ${round + 1}/${FULL_ROUNDS}, ${labels[side]} compare --matrix full`);
      try {
        runs[side]!.push(round2(cli(dirs[side]!, labels[side]!, ['compare', '--matrix', 'full', '--quiet', '--out', out]).cpuSeconds));
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    }
  }
  const [hereMedian, baseMedian] = [round2(median(runs[0]!)), round2(median(runs[1]!))];
  return {
    command: 'mcp-faultsim compare --matrix full --quiet',
    base: labels[1],
    here: runs[0]!,
    baseline: runs[1]!,
    hereMedian,
    baseMedian,
    ratio: round2(hereMedian / baseMedian),
  };
}
const round2 = (x: number) => round(x, 2);

/** A part of the section, or null with the one line that says why it could not run. */
function part<T>(notes: string[], f: () => T): T | null {
  try {
    return f();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`bench: against: ${message}\n`);
    notes.push(message);
    return null;
  }
}

/** The section: check and explore against c1f4702, and (unless `withFullMatrix` is off) compare
 *  --matrix full against 52c6b3c. */
export function measureAgainst(quick: boolean, withFullMatrix: boolean): AgainstFigures {
  const none = { rounds: ROUNDS, installed: [], check: null, explore: null, full: null };
  if (quick) return { here: 'this checkout', ...none, note: 'not run by --quick (it installs and builds earlier commits)' };
  const notes: string[] = [];
  const installed: string[] = [];
  const checkout = (rev: string) => {
    const c = builtCheckout(root, rev);
    if (!c.cached) installed.push(rev);
    return c.dir;
  };
  const head = part(notes, () => resolveCommit(root, 'HEAD').slice(0, 7));
  const here = head ? `this checkout (${head})` : 'this checkout';
  const rates = part(notes, () => {
    const dirs: [string, string] = [root, checkout(C1F4702)];
    const labels: [string, string] = [here, C1F4702];
    cli(dirs[1], C1F4702, [...CHECK, '--runs', '1', ...CHECK_TAIL]); // tsx compiles c1f4702's sources once, untimed
    return {
      check: rate(dirs, labels, 'sessions', [CHECK, CHECK_TAIL], ['--runs', CHECK_RUNS, 1], checkReading),
      explore: rate(dirs, labels, 'states', [EXPLORE, EXPLORE_TAIL], ['--depth', EXPLORE_DEPTH, 1], exploreReading),
    };
  });
  const full = withFullMatrix ? part(notes, () => fullMatrix([root, checkout(B52C6B3C)], [here, B52C6B3C])) : null;
  return {
    here,
    ran: distIsFresh(root) ? 'dist' : 'source',
    rounds: ROUNDS,
    installed,
    check: rates?.check ?? null,
    explore: rates?.explore ?? null,
    full,
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

// `mcp-faultsim compare`'s options and help: what each option means and its default, and how many
// cell threads a comparison of so many cells gets by default.
import { IN_THREAD_RUNS } from '../../compare/cell-threads.ts';
import { defaultWorkers } from '../../search/exhaustive/parallel.ts';
import { DEFAULT_RUNS, DEFAULT_SEED } from '../../search/random/check.ts';
import { DEFAULT_DETAILS } from '../../../reports/compare-common.ts';
import type { OptionSpec } from '../args.ts';
import { POLICIES_OPTION } from '../common-options.ts';
import { DEFAULT_OUT } from '../report-files.ts';

/** From this many cells on, a comparison runs its cells on a thread per core but one (this thread
 *  runs the finder's searches, which keep up with a cell thread: on 2 cores one cell thread is as
 *  fast as two, measured). */
export const MANY_CELLS = 100;
/** The optimizing compiler's inlining budget in a comparison, in bytes of bytecode (V8's default 920):
 *  compare-session.ts says why. */
export const COMPARE_INLINING_BUDGET = 230;

/** Cell threads by default. None for a few short cells (the default compare): they run in this thread,
 *  each ending long before a signal would matter (a signal waits for the cell under way, as for
 *  IN_THREAD_RUNS), and a cell thread's own start-up and warm-up bought no wall time on 2 cores: the
 *  default compare 6.7–7.9 → 4.8–6.0 s CPU, 3.8–4.5 → 3.4–4.4 s wall (3 alternating runs each). */
export function cellThreadsFor(cells: number, runs: number): number {
  if (cells >= MANY_CELLS) return Math.max(1, defaultWorkers() - 1);
  return runs <= IN_THREAD_RUNS ? 0 : 1;
}

export const OPTIONS: Record<string, OptionSpec> = {
  matrix: {
    value: true,
    arg: 'records|full|migration',
    help: "records (default; 'seeds' is its old name): the records' cells, each under its record's faults and all faults; full: every value of every knob (2025-11-25); migration: every record cell under 2025-11-25, 2026-07-28 and the mixed pairs",
  },
  server: {
    value: true,
    arg: 'K=V|V,…',
    help: 'keep only cells whose server knobs take these values, e.g. reinit=honor-last|pin-first|reject',
  },
  client: {
    value: true,
    arg: 'K=V|V,…',
    help: "keep only cells whose client knobs take these values, e.g. guards=|content-type ('' = no guards)",
  },
  policies: POLICIES_OPTION,
  seed: { value: true, arg: 'N', help: `fast-check seed (default ${DEFAULT_SEED}); the same seed gives the same reports` },
  runs: { value: true, arg: 'N', help: `random runs per cell (default ${DEFAULT_RUNS})` },
  out: { value: true, arg: 'DIR', help: `where the reports go (default ${DEFAULT_OUT})` },
  details: { value: true, arg: 'N', help: `findings shown with history and diagram (default ${DEFAULT_DETAILS}); the rest are listed` },
  shard: {
    value: true,
    arg: 'i/n',
    help: 'run every n-th cell starting at the i-th and write its compare.json only; join shards with merge',
  },
  'time-limit': { value: true, arg: 'SECONDS', help: 'stop after this long and write what finished, marked interrupted' },
  depth: {
    value: true,
    arg: 'K',
    help: 'also explore every plan of up to K faults in each cell exhaustively (sequential workloads of 1-3 calls), beside the random runs',
  },
  workers: {
    value: true,
    arg: 'N',
    help: `worker threads: for --depth, its pool (default: every core, ${defaultWorkers()} here); otherwise the cell threads (default: none, the cells running in the main thread, for fewer than ${MANY_CELLS} cells of at most ${IN_THREAD_RUNS} runs; one for longer cells; a core less than there are, ${cellThreadsFor(MANY_CELLS, 0)} here, for ${MANY_CELLS} cells or more); same result`,
  },
  wire: {
    value: false,
    help: 'add real-SDK rows: the SDK client against each model server, each model client against the SDK servers (sdk-sse, sdk-json), and the SDK against itself, run on real HTTP through msw',
  },
  'client-cmd': {
    value: true,
    arg: 'CMD',
    help: 'the wire rows are this client process (JSON lines, examples/clients/README.md) against each model server and the SDK v1 servers: a process has no client knobs, so only the server side varies (wall clock, not byte-reproducible; keep --runs small)',
    needs: ['wire'],
    nonEmpty: 'a command',
  },
  json: { value: false, help: 'print the JSON report on stdout instead of the summary table' },
  quiet: { value: false, help: 'no progress bar' },
  help: { value: false, help: 'show this help' },
};

export const HELP_EXTRA = `
Writes compare.md (renders on GitHub), compare.html (one offline file) and compare.json into --out,
with counterexamples/<finding>.json for each finding (replay one with 'mcp-faultsim replay FILE').
Each finding is a shrunk fault plan with its history; JSON is byte-identical for the same inputs
except its top-level "timing".

exit status: 0 the comparison finished (its findings are in the reports), 2 bad input,
124 stopped by --time-limit, 130 interrupted (SIGINT); both write what finished, marked interrupted.`;

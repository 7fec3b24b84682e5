// `compare` as a user runs it: the CLI in its own process, once on the default matrix (`npm run
// compare`) and once on the full one (`--matrix full`, skipped by --quick: minutes before issue 11),
// each with its wall time, CPU time (every thread) and peak resident memory, read by the process
// itself as it exits (REPORT_USAGE, preloaded), not by this one.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distIsFresh } from '../bin/build-digest.js';
import { note, now, round } from './measure.ts';

export interface CompareRun {
  argv: string[];
  exitCode: number | null;
  wallSeconds: number;
  cpuSeconds: number;
  maxRssMB: number;
  /** From the report's own timing: when the cells were done, and the mitigation finder's searches. */
  cellsDoneSeconds: number | null;
  /** Cells the main thread ran while the finder left it idle (the rest ran on the cell thread). */
  cellsOnMainThread?: number;
  /** Cell threads beside the main thread (0: every cell ran on the main thread). */
  cellThreads?: number;
  finderSearches: {
    asked: number;
    distinct: number;
    fromCells: number;
    /** The main thread's search runs: asked, judged (not answered by a remembered run), recorded (silent, for the mechanism). */
    runsHere?: { asked: number; judged: number; recorded: number };
  } | null;
}

export interface CompareFigures {
  /** What the CLI ran (bin/mcp-faultsim.js): the compiled dist/, or the source through tsx (dist/ stale or missing). */
  ran?: 'dist' | 'source';
  default: CompareRun;
  full: CompareRun | null;
}

const root = fileURLToPath(new URL('..', import.meta.url));
/** Preloaded into the CLI's process: its own CPU time and peak RSS, on stderr, as it exits. The peak is the
 *  process's own high-water mark (Linux: VmHWM in /proc/self/status), not `resourceUsage().maxRSS`, which
 *  Linux carries over from the parent at exec: a CLI spawned by this process read as large as this process
 *  was (the default compare 348 MB, where /usr/bin/time gives 160). */
export const REPORT_USAGE = `data:text/javascript,import{readFileSync}from'node:fs';process.on('exit',()=>{const u=process.resourceUsage();let kb=u.maxRSS;try{const m=/VmHWM:\\s*(\\d+)/.exec(readFileSync('/proc/self/status','utf8'));if(m)kb=Number(m[1])}catch{}process.stderr.write('\\nBENCH-USAGE '+JSON.stringify({cpuUs:u.userCPUTime+u.systemCPUTime,maxRssKB:kb})+'\\n')})`;

function runCli(args: string[]): CompareRun {
  const out = mkdtempSync(join(tmpdir(), 'mcp-faultsim-bench-compare-'));
  const argv = ['compare', ...args, '--quiet', '--out', out];
  note(`compare: ${argv.slice(0, -2).join(' ')}`);
  try {
    const t = now();
    const r = spawnSync(process.execPath, ['--import', REPORT_USAGE, 'bin/mcp-faultsim.js', ...argv], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const wall = (now() - t) / 1000;
    const usage = usageOf(r.stderr ?? '');
    const timing = reportTiming(out);
    return {
      argv: argv.slice(0, -2),
      exitCode: r.status,
      wallSeconds: round(wall, 1),
      cpuSeconds: round(usage.cpuUs / 1e6, 1),
      maxRssMB: Math.round(usage.maxRssKB / 1024),
      cellsDoneSeconds: typeof timing?.cellsDoneMs === 'number' ? round(timing.cellsDoneMs / 1000, 1) : null,
      finderSearches: (timing?.finderSearches as CompareRun['finderSearches']) ?? null,
      ...(typeof timing?.cellsOnMainThread === 'number' ? { cellsOnMainThread: timing.cellsOnMainThread } : {}),
      ...(typeof timing?.cellThreads === 'number' ? { cellThreads: timing.cellThreads } : {}),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The CPU time and peak RSS the preloaded REPORT_USAGE wrote on a process's stderr. */
export function usageOf(stderr: string): { cpuUs: number; maxRssKB: number } {
  const line = /BENCH-USAGE (.*)/.exec(stderr)?.[1];
  return line ? (JSON.parse(line) as { cpuUs: number; maxRssKB: number }) : { cpuUs: NaN, maxRssKB: NaN };
}

/** The `timing` of the compare.json a run wrote, if it wrote one. */
function reportTiming(out: string): Record<string, unknown> | null {
  try {
    return (JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as { timing?: Record<string, unknown> }).timing ?? null;
  } catch {
    return null;
  }
}

export function measureCompare(quick: boolean): CompareFigures {
  const ran = distIsFresh(root) ? 'dist' : 'source';
  if (ran === 'source') note('compare: dist/ is not the build of the sources, so the CLI runs them through tsx (npm run build)');
  return { ran, default: runCli([]), full: quick ? null : runCli(['--matrix', 'full']) };
}

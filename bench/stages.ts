// Where a comparison's time goes, by stage (bench/stage-table.ts): the cells' random runs, their
// fault-free runs, shrinking, certification, the mitigation finder's searches, replays and pair
// searches, the findings, the reports. Two passes per matrix:
//  - CPU: the CLI as a user runs it (its cell threads included), under `node --cpu-prof`; every
//    thread's samples are put in the stage of their stack (idle samples left out, the collector's
//    apart: its samples have no stack). A sample's time is wall time, which a loaded machine
//    stretches, so the shares are the profile's and the seconds are those shares of the process's
//    own CPU time (user + system, every thread, read as it exits). Profiling costs a few per cent.
//  - runs: the same comparison in this process, on one thread (every cell and search here, the
//    reports written to a temporary folder), counting each world started by the stage on its stack
//    (sim/world/run-census.ts). One thread shares one run store, so these are the runs a comparison
//    cannot avoid under today's reuse; the CLI's two threads each keep a store and run a few more.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DETAILS } from '../reports/compare-common.ts';
import { writeReports } from '../sim/cli/report-files.ts';
import { runComparison } from '../sim/compare/compare.ts';
import { buildMatrix, type MatrixCell, type MatrixKind } from '../sim/compare/matrix.ts';
import { runConfig, type RunConfig } from '../sim/plugins/run-config.ts';
import { runStore } from '../sim/search/run-store.ts';
import { runCensus } from '../sim/world/run-census.ts';
import { REPORT_USAGE, usageOf } from './compare.ts';
import { note, round } from './measure.ts';
import { type CpuProfile, profiledRun } from './cpu-profile.ts';
import { GC, OTHER, STAGES, stageOf, type Frame } from './stage-table.ts';

export interface StageRow {
  stage: string;
  /** CPU seconds of every thread in this stage (its share of the profiled CLI run's CPU time). */
  cpuSeconds: number;
  share: number;
  /** Worlds started from an input (runs) and forked from a paused world (exhaustive search), one thread. */
  runs: number | null;
  forks: number | null;
  runsPerFinding: number | null;
}

export interface StageProfile {
  matrix: 'records' | 'full';
  /** The profiled CLI run's CPU seconds (user + system, every thread), and the threads profiled. */
  cpuSeconds: number;
  threads: number;
  findings: number;
  silentFindings: number;
  runs: number;
  rows: StageRow[];
}

export interface StageFigures {
  default: StageProfile;
  full: StageProfile | null;
}

const root = fileURLToPath(new URL('..', import.meta.url));

/** Microseconds by stage over one profile (one thread). */
function stagesOfProfile(p: CpuProfile, into: Map<string, number>): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageById = new Map<number, string | null>();
  const stageOfNode = (id: number): string | null => {
    let s = stageById.get(id);
    if (s !== undefined) return s;
    const leaf = byId.get(id)!.callFrame.functionName;
    if (leaf === '(idle)') s = null;
    else if (leaf === '(garbage collector)') s = GC;
    else {
      const frames: Frame[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) frames.push(byId.get(at)!.callFrame);
      s = stageOf(frames);
    }
    stageById.set(id, s);
    return s;
  };
  p.samples.forEach((id, i) => {
    const s = stageOfNode(id);
    if (s !== null) into.set(s, (into.get(s) ?? 0) + (p.timeDeltas[i] ?? 0));
  });
}

/** The CLI's compare (of the checkout at `cwd`, default this one) under `--cpu-prof`: CPU
 *  microseconds by stage, every thread, and the process's CPU seconds. */
export function profiledCli(args: readonly string[], cwd = root): { byStage: Map<string, number>; threads: number; cpuSeconds: number } {
  const out = mkdtempSync(join(tmpdir(), 'mcp-faultsim-bench-stages-'));
  try {
    const argv = ['--import', REPORT_USAGE, 'bin/mcp-faultsim.js', 'compare', ...args, '--quiet', '--out', out];
    const { profiles, stderr } = profiledRun(argv, cwd);
    const byStage = new Map<string, number>();
    for (const p of profiles) stagesOfProfile(p, byStage);
    return { byStage, threads: profiles.length, cpuSeconds: usageOf(stderr).cpuUs / 1e6 };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The stage of the stack this is called from, read from V8's call sites (the census turns source
 *  maps off: with them on, the stack is formatted as text whatever `Error.prepareStackTrace` says). */
function stageHere(): string {
  const { prepareStackTrace, stackTraceLimit } = Error;
  Error.stackTraceLimit = 400;
  Error.prepareStackTrace = (_e, sites) => sites;
  const holder: { stack?: NodeJS.CallSite[] } = {};
  Error.captureStackTrace(holder);
  const stack = holder.stack; // formatted on first read: before prepareStackTrace is put back
  Error.prepareStackTrace = prepareStackTrace;
  Error.stackTraceLimit = stackTraceLimit;
  const sites = Array.isArray(stack) ? stack : [];
  return stageOf(sites.map((c) => ({ functionName: c.getFunctionName() ?? '', url: c.getFileName() ?? '' })));
}

/** The comparison of `cells` under `config` on this thread, reports written, with every world counted
 *  by its stage; its findings. */
export async function census(cells: readonly MatrixCell[], kind: MatrixKind, config: RunConfig = runConfig()) {
  const counts = new Map<string, { runs: number; forks: number }>();
  const out = mkdtempSync(join(tmpdir(), 'mcp-faultsim-bench-census-'));
  process.setSourceMapsEnabled(false);
  // The runs a comparison makes in a fresh process, as the CLI runs it: runs this thread stored before
  // (the bench's seeds section checks the records' cells) would answer some of them (57 fewer runs of
  // the default comparison after the seeds section).
  runStore.clear();
  runCensus.probe = (fork) => {
    const s = stageHere();
    let c = counts.get(s);
    if (!c) counts.set(s, (c = { runs: 0, forks: 0 }));
    if (fork) c.forks++;
    else c.runs++;
  };
  try {
    const comparison = await runComparison({ cells, kind, cut: { server: {}, client: {} }, size: cells.length }, config);
    writeReports(comparison, out, DEFAULT_DETAILS);
    const silent = comparison.findings.filter((f) => f.mitigations !== undefined).length;
    return { counts, findings: comparison.findings.length, silentFindings: silent };
  } finally {
    runCensus.probe = null;
    process.setSourceMapsEnabled(true);
    rmSync(out, { recursive: true, force: true });
  }
}

async function stageProfile(kind: 'records' | 'full'): Promise<StageProfile> {
  note(`stages: compare --matrix ${kind} under --cpu-prof`);
  const { byStage, threads, cpuSeconds } = profiledCli(kind === 'full' ? ['--matrix', 'full'] : []);
  note(`stages: compare --matrix ${kind}, its runs counted on one thread`);
  const config = runConfig();
  const cells = buildMatrix(kind, { server: {}, client: {} }, config.registry.cells, config.registry.additions);
  const { counts, findings, silentFindings } = await census(cells, kind, config);
  const total = [...byStage.values()].reduce((a, b) => a + b, 0);
  const rows = [...STAGES.map((s) => s.stage), OTHER, GC].map((stage): StageRow => {
    const us = byStage.get(stage) ?? 0;
    const c = stage === GC ? null : (counts.get(stage) ?? { runs: 0, forks: 0 });
    return {
      stage,
      cpuSeconds: round((us / total) * cpuSeconds, 2),
      share: round((us / total) * 100, 1),
      runs: c ? c.runs : null,
      forks: c ? c.forks : null,
      runsPerFinding: c && findings > 0 ? round(c.runs / findings, 1) : null,
    };
  });
  const runs = [...counts.values()].reduce((a, c) => a + c.runs, 0);
  return { matrix: kind, cpuSeconds: round(cpuSeconds, 1), threads, findings, silentFindings, runs, rows };
}

export async function measureStages(quick: boolean): Promise<StageFigures> {
  return { default: await stageProfile('records'), full: quick ? null : await stageProfile('full') };
}

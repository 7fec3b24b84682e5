// A node process run under `--cpu-prof`, and its profiles read as self time per frame: what
// `npm run bench:profile` prints and the bench's parts section sums by part (bench/code-parts.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CpuFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
export interface CpuProfileNode {
  id: number;
  callFrame: CpuFrame;
  children?: number[];
}
export interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** `node ARGV` in `cwd` under --cpu-prof: one profile per thread it ran, and its stderr. Throws with
 *  its stderr on an exit not in `exits`; its stdout goes to ours when `show` is set, else is dropped. */
export function profiledRun(
  argv: readonly string[],
  cwd: string,
  { show = false, exits = [0] } = {},
): { profiles: CpuProfile[]; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-faultsim-cpu-profile-'));
  try {
    const r = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...argv], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', show ? 'inherit' : 'ignore', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
    if (r.status === null || !exits.includes(r.status)) {
      // A preloaded data: URL (bench/compare.ts REPORT_USAGE) is code, not a name to read.
      const command = argv.filter((a) => !a.startsWith('data:')).join(' ');
      throw new Error(`node ${command} under --cpu-prof exited ${r.status ?? r.signal}: ${r.stderr.trim()}`);
    }
    const profiles = readdirSync(dir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .sort()
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as CpuProfile);
    return { profiles, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each sample's time (µs) given to the frame it was taken in (self time); idle samples left out. */
export function forEachSelfTime(p: CpuProfile, f: (frame: CpuFrame, us: number) => void): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n.callFrame]));
  p.samples.forEach((id, i) => {
    const frame = byId.get(id)!;
    if (frame.functionName !== '(idle)') f(frame, p.timeDeltas[i] ?? 0);
  });
}

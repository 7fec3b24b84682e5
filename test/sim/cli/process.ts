// The CLI as a separate process, as a shell runs it: what keeps a process alive (or lets it end
// with exit 13) differs from a call of `main` inside vitest, so out-of-process behaviour is tested here.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './run.ts';

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when the test's own limit ended it: the CLI did not exit by itself. */
  hung: boolean;
}

export interface Running {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  ended: Promise<Ended>;
}

/** Start `mcp-faultsim ...argv`; it is SIGKILLed (and `hung`) if still running after `limitMs`. */
export function startCli(argv: readonly string[], limitMs = 60_000): Running {
  const child = spawn(process.execPath, ['bin/mcp-faultsim.js', ...argv], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += String(d)));
  child.stderr!.on('data', (d) => (stderr += String(d)));
  let hung = false;
  const timer = setTimeout(() => ((hung = true), child.kill('SIGKILL')), limitMs);
  const ended = new Promise<Ended>((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, hung });
    }),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, ended };
}

export function runCli(argv: readonly string[], limitMs = 60_000): Promise<Ended> {
  return startCli(argv, limitMs).ended;
}

export interface PsRow {
  pid: number;
  ppid: number;
  pgid: number;
  stat: string;
  args: string;
}

/** The process table (`ps -eo pid,ppid,pgid,stat,args`) without zombies: a dead process that init has
 *  not reaped yet (it is slow to, here) runs nothing and holds nothing, and the tool cannot reap it. */
export function processTable(): PsRow[] {
  const text = execFileSync('ps', ['-eo', 'pid=,ppid=,pgid=,stat=,args='], { encoding: 'utf8' });
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(l)!;
      return { pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), stat: m[4]!, args: m[5]! };
    })
    .filter((r) => !r.stat.startsWith('Z'));
}

/** Process groups led by children of `pid` (the groups a CLI started with --serve). */
export function groupsStartedBy(pid: number): number[] {
  return processTable()
    .filter((r) => r.ppid === pid && r.pgid === r.pid)
    .map((r) => r.pgid);
}

/** Processes still in any of `groups`. */
export function leftIn(groups: readonly number[]): PsRow[] {
  return processTable().filter((r) => groups.includes(r.pgid));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Poll `f` every 100 ms until it returns a value that is not undefined, or `limitMs` passes. */
export async function waitFor<T>(f: () => T | undefined, limitMs = 30_000): Promise<T> {
  for (let waited = 0; waited < limitMs; waited += 100) {
    const v = f();
    if (v !== undefined) return v;
    await sleep(100);
  }
  throw new Error(`waited ${limitMs} ms in vain`);
}

// Every process group the tool started, ended with it on every exit path. A served command runs as
// `sh -c CMD` in its own process group (spawned detached), so the shell and whatever it started are
// ended together by the group's id. While any group is alive this process listens for:
// - `exit` (a normal end, an error, an uncaught exception): SIGTERM to every group, synchronously;
// - SIGINT, SIGTERM, SIGHUP: SIGTERM to every group, SIGKILL to what is left after a grace period,
//   then the signal again with the default action, so the tool ends as the signal means (130, 143).
// Only SIGKILL of this process leaves a group behind: nothing can run then.
import type { ChildProcess } from 'node:child_process';
import { REAL } from './virtual-time.ts';

const groups = new Set<ChildProcess>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const GRACE_MS = 2000;

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    /* the group is gone */
  }
}

const onExit = (): void => {
  for (const child of groups) signalGroup(child, 'SIGTERM');
};

let ending = false;
function onSignal(signal: NodeJS.Signals): void {
  if (ending) return;
  ending = true;
  const live = [...groups];
  for (const child of live) signalGroup(child, 'SIGTERM');
  const gone = Promise.all(live.map((c) => (c.exitCode !== null || c.signalCode !== null ? null : new Promise((r) => c.once('exit', r)))));
  const grace = new Promise((r) => REAL.setTimeout(r, GRACE_MS));
  void Promise.race([gone, grace]).then(() => {
    for (const child of live) signalGroup(child, 'SIGKILL');
    unlisten();
    process.kill(process.pid, signal);
  });
}

function listen(): void {
  process.on('exit', onExit);
  for (const s of SIGNALS) process.on(s, onSignal);
}

function unlisten(): void {
  process.off('exit', onExit);
  for (const s of SIGNALS) process.off(s, onSignal);
}

/** Track a child spawned `detached` (it leads its own group) until it exits. When it exits, whatever
 *  it left in its group (a server the shell started in the background) is ended too. */
export function adoptGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  if (groups.size === 0) listen();
  groups.add(child);
  child.once('exit', () => {
    signalGroup(child, 'SIGTERM');
    groups.delete(child);
    if (groups.size === 0 && !ending) unlisten();
  });
}

/** End one group: SIGTERM, then SIGKILL after `graceMs`; resolves once its leader has exited. */
export async function endGroup(child: ChildProcess, graceMs = GRACE_MS): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child, 'SIGTERM');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const killed = await Promise.race([gone.then(() => true), new Promise<boolean>((r) => (timer = REAL.setTimeout(() => r(false), graceMs)))]);
  REAL.clearTimeout(timer);
  if (!killed) {
    signalGroup(child, 'SIGKILL');
    await gone;
  }
}

/** Groups still tracked (for tests and for a report of what is left). */
export function liveGroups(): number[] {
  return [...groups].flatMap((c) => (c.pid !== undefined ? [c.pid] : []));
}

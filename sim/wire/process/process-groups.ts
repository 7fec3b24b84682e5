// Every process group the tool started, ended with it on every exit path. A served command runs as
// `sh -c CMD` in its own process group (spawned detached), so the shell and whatever it started are
// ended together by the group's id. While any group is alive this process listens for:
// - `exit` (a normal end, an error, an uncaught exception): SIGTERM to every group, then a synchronous
//   wait until they are gone (SIGKILL after a grace period);
// - SIGINT, SIGTERM, SIGHUP: SIGTERM to every group, SIGKILL to what is left after a grace period,
//   then the signal again with the default action, so the tool ends as the signal means (130, 143).
// Only SIGKILL of this process leaves a group behind: nothing can run then.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { REAL, withinRealMs } from '../protocol/real-timers.ts';

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

/** Is anything left in the group led by `child` (the leader may have exited before the rest)?
 *  A zombie is not: a server the shell started is reparented when the shell dies and stays a zombie
 *  until init reaps it (slowly, here), though `kill(-pgid, 0)` still finds it. So on Linux the group
 *  is read from /proc, zombies left out; elsewhere `kill(-pgid, 0)` decides. */
function groupAlive(child: ChildProcess): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, 0);
  } catch {
    return false;
  }
  if (!existsSync('/proc/self/stat')) return true;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === child.pid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

async function groupGone(child: ChildProcess, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 20) {
    if (!groupAlive(child)) return true;
    await new Promise((r) => REAL.setTimeout(r, 20));
  }
  return !groupAlive(child);
}

/** SIGTERM, then SIGKILL to what is left after `graceMs`; resolves once the whole group is gone. */
async function endWhole(child: ChildProcess, graceMs: number): Promise<void> {
  signalGroup(child, 'SIGTERM');
  if (await groupGone(child, graceMs)) return;
  signalGroup(child, 'SIGKILL');
  await groupGone(child, 1000);
}

// On `exit` nothing asynchronous runs any more: signal, then wait for the groups synchronously.
const onExit = (): void => {
  const live = [...groups];
  for (const child of live) signalGroup(child, 'SIGTERM');
  const tick = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; waited < GRACE_MS && live.some(groupAlive); waited += 20) Atomics.wait(tick, 0, 0, 20);
  for (const child of live) if (groupAlive(child)) signalGroup(child, 'SIGKILL');
};

let ending = false;
function onSignal(signal: NodeJS.Signals): void {
  if (ending) return;
  ending = true;
  void Promise.all([...groups].map((child) => endWhole(child, GRACE_MS))).then(() => {
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

/** Track a child spawned `detached` (it leads its own group) until its group is gone. When the leader
 *  exits, whatever it left in its group (a server the shell started in the background) is ended too. */
export function adoptGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  if (groups.size === 0) listen();
  groups.add(child);
  child.once('exit', () => {
    // Tracked until nothing of the group is left, so that every exit path still finds it.
    void endWhole(child, GRACE_MS).then(() => forget(child));
  });
}

function forget(child: ChildProcess): void {
  if (!groups.delete(child)) return;
  if (groups.size === 0 && !ending) unlisten();
}

/** End one group: SIGTERM, then SIGKILL after `graceMs`; resolves once nothing of it is left. */
export async function endGroup(child: ChildProcess, graceMs = GRACE_MS): Promise<void> {
  if (child.pid === undefined) return;
  await endWhole(child, graceMs);
  // The leader's exit event may lag its death a little; bounded, since a group that ignored SIGKILL
  // (a process in uninterruptible sleep) must not hang the tool.
  if (child.exitCode === null && child.signalCode === null) {
    await withinRealMs(new Promise((r) => child.once('exit', r)), 1000, undefined);
  }
  forget(child);
}

/** Groups still tracked (for tests and for a report of what is left). */
export function liveGroups(): number[] {
  return [...groups].flatMap((c) => (c.pid !== undefined ? [c.pid] : []));
}

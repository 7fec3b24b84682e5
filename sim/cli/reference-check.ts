// Before any fault is injected: the fault-free run must work. Every outcome is judged against it, so
// a target whose every call fails (a dead server, broken JSON) would otherwise make every property
// hold vacuously-but-silently and exit 0. One call, with and without progress; any call that does
// not come back with a result is bad input (exit 2), said in one line.
import type { History } from '../core/history.ts';
import { call, type Workload } from '../core/workload.ts';
import { UsageError } from './errors.ts';

const REFERENCE: Workload = [call(false), call(true)];

/** Why the fault-free run fails, or null when every call returned a result. */
export function referenceFailure(h: History): string | null {
  const ends = h.entries.filter((e) => e.kind === 'end');
  if (ends.length === 0) return 'no call ended';
  for (const e of ends) {
    if (e.kind !== 'end' || e.end === 'result') continue;
    return e.end === 'error'
      ? `call ${e.callId} failed: ${e.reason}`
      : `call ${e.callId} ${e.end === 'deadline' ? 'ran into the client deadline' : 'never ended'}`;
  }
  return null;
}

/** Plain calls only: what the client scenarios run (a client may check a tool is listed before it calls it). */
export const CLIENT_REFERENCE: Workload = [call(false), call(false)];

export async function requireWorkingReference(
  what: string,
  run: (w: Workload) => Promise<History> | History,
  workload: Workload = REFERENCE,
): Promise<void> {
  const why = referenceFailure(await run(workload));
  if (why)
    throw new UsageError(
      `${what}: the fault-free reference run fails (${why}); nothing can be judged against a baseline that does not work`,
    );
}

// What the agent does: connect, then a sequence of calls. A step that overlaps is issued as soon as
// the one before it was, up to MAX_IN_FLIGHT at once; otherwise it waits for every earlier call.

export interface WorkloadStep {
  method: 'tools/call' | 'tools/list';
  /** The call asks for progress (`_meta.progressToken`). */
  progress: boolean;
  /** Issued without waiting for the calls before it to end. */
  overlap: boolean;
  /** The tool is annotated `idempotentHint: true` (absent: a tool with a side effect). */
  idempotent?: boolean;
}

export type Workload = readonly WorkloadStep[];

export const MAX_IN_FLIGHT = 3;

export function call(progress = false, overlap = false, idempotent = false): WorkloadStep {
  return { method: 'tools/call', progress, overlap, ...(idempotent ? { idempotent: true } : {}) };
}

export function list(): WorkloadStep {
  return { method: 'tools/list', progress: false, overlap: false };
}

/** Which calls the agent issues next, given which have been issued and which have ended. */
export function nextCalls(workload: Workload, issued: number, ended: ReadonlySet<number>): number[] {
  const out: number[] = [];
  let inFlight = issued - ended.size;
  for (let i = issued; i < workload.length && inFlight < MAX_IN_FLIGHT; i++) {
    const allEnded = ended.size === i;
    if (!(allEnded || (workload[i]!.overlap && i > 0))) break;
    out.push(i);
    inFlight++;
  }
  return out;
}

export function describeWorkload(workload: Workload): string {
  return workload
    .map(
      (s, i) =>
        `${i === 0 || !s.overlap ? '' : '‖'}${s.method === 'tools/list' ? 'list' : s.progress ? 'call+progress' : 'call'}${s.idempotent ? '(idempotent)' : ''}`,
    )
    .join(' ');
}

// The agent's workload on the wire: the same issuing rule as the model world (core/workload.ts's
// `nextCalls`: a step waits for every earlier call unless it overlaps, up to three in flight),
// recording each call's invoke and end in the history. The client adapters start the calls and
// report how each ended; the network says what became of the answer of a call ended by deadline.
import type { TextContent } from '../../../models/messages.ts';
import type { Answer } from '../../core/history.ts';
import { nextCalls, type Workload, type WorkloadStep } from '../../core/workload.ts';
import type { Recorder } from './recorder.ts';

export type WireCallEnd =
  | { end: 'result'; content: TextContent[] }
  | { end: 'error'; reason: string }
  | { end: 'deadline'; answer: Answer; serverFinished: boolean }
  | { end: 'never'; answer: Answer; serverFinished: boolean };

export class Agent {
  private issued = 0;
  private issuing = false;
  private readonly ended = new Set<number>();

  constructor(
    readonly workload: Workload,
    private readonly recorder: Recorder,
    private readonly issue: (callId: number, step: WorkloadStep) => void,
  ) {}

  get done(): boolean {
    return this.ended.size >= this.workload.length;
  }

  isOpen(callId: number): boolean {
    return callId < this.issued && !this.ended.has(callId);
  }

  /** Calls issued and not ended: what `never` ends are recorded for when the run stops. */
  open(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.issued; i++) if (!this.ended.has(i)) out.push(i);
    return out;
  }

  start(): void {
    this.issueNext();
  }

  end(callId: number, attempts: number, req: number, e: WireCallEnd): void {
    if (this.ended.has(callId)) return;
    this.recorder.record({ kind: 'end', callId, attempts, req, ...e });
    this.ended.add(callId);
    this.issueNext();
  }

  /** Issue what the workload allows now, one call at a time: a call may end while it is issued
   *  (a dead session fails it at once), and the next decision must see that. */
  private issueNext(): void {
    if (this.issuing) return;
    this.issuing = true;
    try {
      for (
        let [i] = nextCalls(this.workload, this.issued, this.ended);
        i !== undefined;
        [i] = nextCalls(this.workload, this.issued, this.ended)
      ) {
        const step = this.workload[i]!;
        this.issued++;
        this.recorder.record({
          kind: 'invoke',
          callId: i,
          method: step.method,
          progress: step.progress,
          ...(step.idempotent ? { idempotent: true } : {}),
        });
        this.issue(i, step);
      }
    } finally {
      this.issuing = false;
    }
  }
}

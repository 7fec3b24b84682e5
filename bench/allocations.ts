// What a function allocates per call, once warm, garbage included: V8's sampling heap profiler (one
// sample per 256 bytes on average; the objects the collector has freed since are counted too),
// through the inspector in this process, whose calls answer at once. The engine section's bytes per
// session, and the parts section's split of them by part of the code (bench/code-parts.ts).
import { Session } from 'node:inspector';

interface SampleNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: SampleNode[];
}

/** Bytes per call of `f` by the frame that allocated them (`visit` gets each frame and its bytes per
 *  call), over `calls` calls after as many to warm up; returns the total per call. */
export function allocationsPerCall(
  f: () => void,
  calls: number,
  visit: (frame: { functionName: string; url: string }, bytesPerCall: number) => void = () => {},
): number {
  for (let i = 0; i < calls; i++) f();
  const session = new Session();
  session.connect();
  let head: SampleNode | undefined;
  try {
    session.post('HeapProfiler.startSampling', {
      samplingInterval: 256,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    for (let i = 0; i < calls; i++) f();
    session.post('HeapProfiler.stopSampling', (error, r) => {
      if (error) throw error;
      head = r.profile.head as never;
    });
  } finally {
    session.disconnect();
  }
  if (!head) throw new Error('the heap profiler gave no profile');
  let bytes = 0;
  const walk = (n: SampleNode) => {
    bytes += n.selfSize;
    if (n.selfSize > 0) visit(n.callFrame, n.selfSize / calls);
    for (const c of n.children) walk(c);
  };
  walk(head);
  return bytes / calls;
}

/** Bytes `f` allocates per call, once warm, over `calls` calls. */
export const bytesPerCall = (f: () => void, calls: number): number => allocationsPerCall(f, calls);

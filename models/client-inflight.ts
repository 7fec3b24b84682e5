// What the client waits on (`ClientContext.inflight`): a short list in ascending `req` order, copied
// with one entry replaced, added or removed on every send and every answer.
import type { Inflight } from './client-context.ts';

/** What the client waits on, without request `req` and then with `f` (if any), in `req` order. A
 *  short array, not an object keyed by request: copying an integer-keyed object was the engine's
 *  costliest copy in V8. */
export function inflightWith(inflight: readonly Inflight[], req: number, f: Inflight | null): Inflight[] {
  // Counted first and filled by index: pushes onto `[]` grow it to sixteen slots, on every send and answer.
  let n = f === null ? 0 : 1;
  for (let i = 0; i < inflight.length; i++) {
    const x = inflight[i]!;
    if (x.req !== req && !(f && x.req === f.req)) n++;
  }
  const out: Inflight[] = new Array(n);
  let placed = f === null;
  let j = 0;
  for (let i = 0; i < inflight.length; i++) {
    const x = inflight[i]!;
    if (x.req === req || (f && x.req === f.req)) continue;
    // `f` goes before the first request after it (a splice afterwards cost more than the loop).
    if (!placed && x.req > f!.req) {
      out[j++] = f!;
      placed = true;
    }
    out[j++] = x;
  }
  if (!placed) out[j++] = f!;
  return out;
}

/** What the client waits on for request `req`, if anything. */
export function inflightAt(inflight: readonly Inflight[], req: number): Inflight | undefined {
  for (const f of inflight) if (f.req === req) return f;
  return undefined;
}

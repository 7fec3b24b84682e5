// `no-silent-empty` and `no-silent-hang`: no call ends silently, judged by its outcome against the
// fault-free run (properties/outcomes.ts). When several calls are silent, the verdict names the one
// with the lowest call id, whatever order they ended in.
import type { EndEntry } from '../sim/core/history.ts';
import { AFTER_FAULT_READS, afterFaultKey, NO_FAULT_YET, stepAfterFault, type AfterFault } from './after-fault.ts';
import type { PropertyFold } from './fold.ts';
import { outcomeOf, type Reference } from './outcomes.ts';

interface SilentState {
  readonly reference: Reference;
  readonly after: AfterFault;
  /** The silent call with the lowest id so far, and why it is one. */
  readonly bad: { readonly callId: number; readonly why: string } | null;
}

type Silent = 'silent-empty' | 'silent-hang';

const WHY: Record<Silent, (end: EndEntry) => string> = {
  'silent-empty': (e) =>
    `call ${e.callId} returned a well-formed result that differs from the fault-free run's ` +
    `(${JSON.stringify(e.end === 'result' ? e.content : null)}) with no error`,
  'silent-hang': (e) =>
    `call ${e.callId} ended only by the client's deadline at t=${e.t} ms though the server had finished it ` +
    `(answer ${'answer' in e ? e.answer : '?'})`,
};

function silentCall(holdsWhen: string, kind: Silent): Omit<PropertyFold<SilentState>, 'name'> {
  return {
    holdsWhen,
    reads: AFTER_FAULT_READS,
    init: (reference) => ({ reference, after: NO_FAULT_YET, bad: null }),
    step(s, e) {
      const after = stepAfterFault(s.after, e);
      if (e.kind === 'end' && (s.bad === null || e.callId < s.bad.callId) && outcomeOf(e, s.reference) === kind) {
        return { reference: s.reference, after, bad: { callId: e.callId, why: WHY[kind](e) } };
      }
      return after === s.after ? s : { reference: s.reference, after, bad: s.bad };
    },
    verdict: (s) => (s.bad ? { holds: false, reached: true, why: s.bad.why } : { holds: true, reached: s.after.reached }),
    key: (s, now) => (s.bad ? 'V' : afterFaultKey(s.after, now)),
  };
}

export const noSilentEmpty = silentCall(
  "no call returns a well-formed result that differs from the fault-free run's without an error",
  'silent-empty',
);

export const noSilentHang = silentCall('no call ends only by the client deadline (or never) while the server finished it', 'silent-hang');

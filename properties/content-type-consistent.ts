// `content-type-consistent`: every tools/call response's Content-Type matches the mode the client
// expects (the client's `read` notes say both). Reached once some call ended after a fault acted.
import { AFTER_FAULT_READS, afterFaultKey, NO_FAULT_YET, stepAfterFault, type AfterFault } from './after-fault.ts';
import type { PropertyFold } from './fold.ts';

interface ContentTypeState {
  readonly after: AfterFault;
  readonly why: string | null;
}

const TYPES = { sse: 'text/event-stream', json: 'application/json' } as const;

export const contentTypeConsistent: Omit<PropertyFold<ContentTypeState>, 'name'> = {
  holdsWhen: "every tools/call response's Content-Type matches the mode the client expects",
  reads: [...AFTER_FAULT_READS, 'client'],
  init: () => ({ after: NO_FAULT_YET, why: null }),
  step(s, e) {
    const after = stepAfterFault(s.after, e);
    if (s.why === null && e.kind === 'client' && e.note === 'read' && e.expected !== 'any' && e.contentType !== TYPES[e.expected]) {
      const why = `call ${e.callId}'s response (request ${e.req}) was ${e.contentType} where the client expected ${TYPES[e.expected]}`;
      return { after, why };
    }
    return after === s.after ? s : { after, why: s.why };
  },
  verdict: (s) => (s.why !== null ? { holds: false, reached: true, why: s.why } : { holds: true, reached: s.after.reached }),
  key: (s, now) => (s.why !== null ? 'V' : afterFaultKey(s.after, now)),
};

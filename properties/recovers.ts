// `recovers` (liveness): once the last fault has fired, calls return to ok within RECOVERY_GRACE
// further calls. A loud failure that never heals is an outage, not a mitigation. The calls that
// count are those invoked strictly after the last fault entry (applied or not), in call-id order.
import type { PropertyFold } from './fold.ts';
import { outcomeOf, type Outcome, type Reference } from './outcomes.ts';

/** The first call invoked after the last fault may fail while it finds the damage; every later one must be ok. */
export const RECOVERY_GRACE = 1;

interface RecoversState {
  readonly reference: Reference;
  /** The last fault's instant; null before any fault. */
  readonly lastFault: number | null;
  /** Calls invoked strictly after the last fault, in call-id order: their outcome once they have ended.
   *  (A short array, not a record keyed by call id: a spread of an integer-keyed record is V8's slow path.) */
  readonly after: readonly AfterCall[];
}

type AfterCall = readonly [callId: number, outcome: Outcome | null];

const sortedAfter = (s: RecoversState) => s.after;

/** `after` with this call's outcome set, kept in call-id order. */
function withCall(after: readonly AfterCall[], callId: number, outcome: Outcome | null): AfterCall[] {
  const next: AfterCall[] = [];
  let placed = false;
  for (const a of after) {
    if (!placed && a[0] >= callId) {
      next.push([callId, outcome]);
      placed = true;
      if (a[0] === callId) continue;
    }
    next.push(a);
  }
  if (!placed) next.push([callId, outcome]);
  return next;
}

const hasCall = (after: readonly AfterCall[], callId: number) => after.some((a) => a[0] === callId);

export const recovers: Omit<PropertyFold<RecoversState>, 'name'> = {
  holdsWhen: `once the last fault has fired, calls return to ok within ${RECOVERY_GRACE} further call`,
  reads: ['fault', 'invoke', 'end'],
  init: (reference) => ({ reference, lastFault: null, after: [] }),
  step(s, e) {
    if (e.kind === 'fault') return { reference: s.reference, lastFault: e.t, after: [] };
    if (e.kind === 'invoke' && s.lastFault !== null && e.t > s.lastFault)
      return { reference: s.reference, lastFault: s.lastFault, after: withCall(s.after, e.callId, null) };
    if (e.kind === 'end' && hasCall(s.after, e.callId))
      return { reference: s.reference, lastFault: s.lastFault, after: withCall(s.after, e.callId, outcomeOf(e, s.reference)) };
    return s;
  },
  verdict(s) {
    if (s.lastFault === null) return { holds: true, reached: false };
    const ended = sortedAfter(s).filter(([, o]) => o !== null);
    if (ended.length <= RECOVERY_GRACE) return { holds: true, reached: false };
    const i = ended.findIndex(([, o], j) => j >= RECOVERY_GRACE && o !== 'ok');
    if (i < 0) return { holds: true, reached: true };
    const [callId, outcome] = ended[i]!;
    const why = `call ${callId}, call number ${i + 1} invoked after the last fault (t=${s.lastFault} ms), was still ${outcome}`;
    return { holds: false, reached: true, why };
  },
  key: (s, now) => (s.lastFault === null ? '-' : `${s.lastFault === now ? '=' : '<'}${sortedAfter(s).join(';')}`),
};

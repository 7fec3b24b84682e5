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
  /** Calls invoked strictly after the last fault, by call id: their outcome once they have ended. */
  readonly after: Readonly<Record<number, Outcome | null>>;
}

const sortedAfter = (s: RecoversState) =>
  Object.entries(s.after)
    .map(([id, o]) => [Number(id), o] as const)
    .sort(([a], [b]) => a - b);

export const recovers: PropertyFold<RecoversState> = {
  name: 'recovers',
  holdsWhen: `once the last fault has fired, calls return to ok within ${RECOVERY_GRACE} further call`,
  reads: ['fault', 'invoke', 'end'],
  init: (reference) => ({ reference, lastFault: null, after: {} }),
  step(s, e) {
    if (e.kind === 'fault') return { ...s, lastFault: e.t, after: {} };
    if (e.kind === 'invoke' && s.lastFault !== null && e.t > s.lastFault) return { ...s, after: { ...s.after, [e.callId]: null } };
    if (e.kind === 'end' && e.callId in s.after) return { ...s, after: { ...s.after, [e.callId]: outcomeOf(e, s.reference) } };
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

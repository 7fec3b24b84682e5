// `transport-expressible` (record 003's invariant): no capability admitted for use is inexpressible in
// the session's actual transport. The server's notes record each session's transport and the
// encoding it carries progress in; the client's `admit` notes say which encoding a call relies on.
// The two are compared as recorded: the oracle does not recompute either side's logic.
import type { ProgressEncoding, Transport } from '../models/capabilities.ts';
import type { PropertyFold } from './fold.ts';

interface Carrier {
  readonly transport: Transport;
  readonly encoding: ProgressEncoding;
}

interface ExpressibleState {
  /** An admit happened on a session that runs on another transport than the default. */
  readonly reached: boolean;
  readonly why: string | null;
  readonly sessions: Readonly<Record<string, Carrier>>;
}

const keyOf = (sessions: Readonly<Record<string, Carrier>>) =>
  Object.entries(sessions)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([s, c]) => `${s},${c.transport},${c.encoding}`)
    .join(';');

function carry(s: ExpressibleState, session: string, transport: Transport, encoding: ProgressEncoding): ExpressibleState {
  // A copy by a loop, not `{ ...s.sessions, [session]: … }` (a spread with a computed key is V8's slow path).
  const sessions: Record<string, Carrier> = {};
  for (const k in s.sessions) sessions[k] = s.sessions[k]!;
  sessions[session] = { transport, encoding };
  return { reached: s.reached, why: s.why, sessions };
}

export const transportExpressible: Omit<PropertyFold<ExpressibleState>, 'name'> = {
  holdsWhen: "no capability admitted for use is inexpressible in the session's actual transport",
  reads: ['server', 'client'],
  init: () => ({ reached: false, why: null, sessions: {} }),
  step(s, e) {
    if (s.why !== null) return s;
    if (e.kind === 'server') {
      if (e.note === 'session-opened') return carry(s, e.session, e.transport, e.encoding);
      if (e.note === 'reinitialized') return carry(s, e.newSession ?? e.session, e.transport, e.encoding);
      if (e.note === 'transport-changed') return carry(s, e.session, e.to, e.encoding);
      return s;
    }
    if (e.kind !== 'client' || e.note !== 'admit') return s;
    const actual = s.sessions[e.session];
    if (actual === undefined) return s;
    const reached = s.reached || actual.transport !== 'streamable-http';
    const wrong = e.caps.find(({ encoding }) => encoding !== actual.encoding);
    if (wrong) {
      const why =
        `call ${e.callId} was admitted relying on ${wrong.cap} as ${wrong.encoding} progress, ` +
        `but session ${e.session} runs on ${actual.transport}, which carries it as ${actual.encoding}`;
      return { reached: true, why, sessions: s.sessions };
    }
    return reached === s.reached ? s : { reached, why: s.why, sessions: s.sessions };
  },
  verdict: (s) => (s.why !== null ? { holds: false, reached: true, why: s.why } : { holds: true, reached: s.reached }),
  key: (s) => (s.why !== null ? 'V' : `${s.reached ? 'r' : '-'}${keyOf(s.sessions)}`),
};

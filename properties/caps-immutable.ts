// `caps-immutable` (record 000's invariant): a session's negotiated capabilities never change without
// a session reset. The server's notes say what each session was opened with and what a re-initialize
// left it with; a re-initialize that opens a new session (`newSession`) is a reset, not a change.
//
// A session the server forgot (expired, restarted) is gone, and so are its first capabilities: a
// server that then re-initializes it in place, instead of answering 404 or opening a new session,
// renegotiates a session whose first handshake it no longer has, so nothing anchors what the client
// still holds. That is a violation whatever the new set is. (The model's server never does it: an
// `initialize` on an unknown session is a 404. A real server behind the wire tier might.)
import type { PropertyFold } from './fold.ts';

interface CapsState {
  readonly reached: boolean;
  readonly why: string | null;
  /** First capabilities (JSON) of each session the server still has. */
  readonly first: Readonly<Record<string, string>>;
}

/** The JSON of a capability set, kept per set object: the model makes each set once and shares it
 *  (models/capabilities.ts), so the same few are stringified once for all runs. Entries are
 *  immutable data: a set is never changed once a note holds it. */
const capsJsonOf = new WeakMap<object, string>();
function capsJson(caps: readonly unknown[]): string {
  let json = capsJsonOf.get(caps);
  if (json === undefined) capsJsonOf.set(caps, (json = JSON.stringify(caps)));
  return json;
}

/** `{ ...first, [session]: caps }` by a loop (a spread with a computed key is V8's slow path); same key order. */
function withFirst(first: Readonly<Record<string, string>>, session: string, caps: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in first) out[k] = first[k]!;
  out[session] = caps;
  return out;
}

const sortedEntries = (m: Readonly<Record<string, unknown>>) => Object.entries(m).sort(([a], [b]) => (a < b ? -1 : 1));

export const capsImmutable: Omit<PropertyFold<CapsState>, 'name'> = {
  holdsWhen: "a session's negotiated capabilities never change without a session reset",
  reads: ['server'],
  init: () => ({ reached: false, why: null, first: {} }),
  step(s, e) {
    if (s.why !== null || e.kind !== 'server') return s;
    switch (e.note) {
      case 'session-opened':
        return { reached: s.reached, why: s.why, first: withFirst(s.first, e.session, capsJson(e.caps)) };
      case 'session-forgotten': {
        if (!(e.session in s.first)) return s;
        const { [e.session]: _gone, ...first } = s.first;
        return { reached: s.reached, why: s.why, first };
      }
      case 'reinit-rejected':
        return s.reached ? s : { reached: true, why: s.why, first: s.first };
      case 'reinitialized': {
        const caps = capsJson(e.caps);
        // A new session opened by the re-initialize starts with what it answered.
        if (e.newSession !== undefined) return { reached: true, why: s.why, first: withFirst(s.first, e.newSession, caps) };
        const first = s.first[e.session];
        if (first === undefined) {
          const why =
            `session ${e.session} was re-initialized in place (policy ${e.policy}) at t=${e.t} ms ` +
            'though the server had no such session (forgotten or never opened)';
          return { reached: true, why, first: s.first };
        }
        if (first !== caps) {
          const why = `session ${e.session} went from ${first} to ${caps} on a re-initialize (policy ${e.policy}) at t=${e.t} ms`;
          return { reached: true, why, first: s.first };
        }
        return s.reached ? s : { reached: true, why: s.why, first: s.first };
      }
      default:
        return s;
    }
  },
  verdict: (s) => (s.why !== null ? { holds: false, reached: true, why: s.why } : { holds: true, reached: s.reached }),
  key: (s) => (s.why !== null ? 'V' : `${s.reached ? 'r' : '-'}${sortedEntries(s.first).join(';')}`),
};

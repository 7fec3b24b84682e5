// A note effect as a history entry: `{ t, kind, ...note }`, key for key. Notes are a third of a run's
// entries, in a score of shapes, and a copy key by key (or a spread, or Object.assign) over that many
// shapes is V8's slow, megamorphic path: a seventh of the engine's time (measured by recording notes
// without copying them). The commonest shapes are built as literals, one shape each; a note is given
// its literal only when its keys are exactly the literal's, in the same order, so the entry is the
// copy's either way.
import type { HistoryEntry } from '../core/history.ts';

/** `{ t, kind, ...note }`: the note's literal where it has one, else a copy key by key. */
export function noteEntry(t: number, kind: 'client' | 'server', note: object): HistoryEntry {
  const n = note as Record<string, unknown>;
  const shape = (kind === 'client' ? CLIENT_NOTES : SERVER_NOTES).get(n.note as string);
  if (shape !== undefined && hasKeys(n, shape.keys)) return shape.build(t, kind, n) as unknown as HistoryEntry;
  const e: Record<string, unknown> = { t, kind };
  for (const k in note) e[k] = n[k];
  return e as unknown as HistoryEntry;
}

/** Whether `o`'s own enumerable keys are exactly `keys`, in that order (what a key-by-key copy would copy). */
function hasKeys(o: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const k in o) if (k !== keys[i++]) return false;
  return i === keys.length;
}

type Note = Record<string, unknown>;
interface NoteShape {
  keys: readonly string[];
  build(t: number, kind: string, n: Note): object;
}

/** A note's literal, for a note with exactly these keys in this order. */
function shape(keys: readonly string[], build: NoteShape['build']): NoteShape {
  return { keys, build };
}

/** The literal of each common note (by machine and name, with the keys the model writes it with), for `noteEntry`. */
const CLIENT_NOTES = new Map<string, NoteShape>([
  [
    'read',
    shape(['note', 'callId', 'req', 'contentType', 'expected'], (t, kind, n) => ({
      t,
      kind,
      note: n.note,
      callId: n.callId,
      req: n.req,
      contentType: n.contentType,
      expected: n.expected,
    })),
  ],
  [
    'handshake-sent',
    shape(['note', 'handshake', 'session', 'caps'], (t, kind, n) => ({
      t,
      kind,
      note: n.note,
      handshake: n.handshake,
      session: n.session,
      caps: n.caps,
    })),
  ],
  [
    'session-opened',
    shape(['note', 'session', 'caps', 'transport', 'pinned'], (t, kind, n) => ({
      t,
      kind,
      note: n.note,
      session: n.session,
      caps: n.caps,
      transport: n.transport,
      pinned: n.pinned,
    })),
  ],
  [
    'admit',
    shape(['note', 'callId', 'req', 'session', 'caps'], (t, kind, n) => ({
      t,
      kind,
      note: n.note,
      callId: n.callId,
      req: n.req,
      session: n.session,
      caps: n.caps,
    })),
  ],
  [
    'attempt-failed',
    shape(['note', 'callId', 'attempt', 'reason'], (t, kind, n) => ({
      t,
      kind,
      note: n.note,
      callId: n.callId,
      attempt: n.attempt,
      reason: n.reason,
    })),
  ],
  [
    'handshake-failed',
    shape(['note', 'handshake', 'reason'], (t, kind, n) => ({ t, kind, note: n.note, handshake: n.handshake, reason: n.reason })),
  ],
  [
    'reconnect',
    shape(['note', 'handshake', 'reason'], (t, kind, n) => ({ t, kind, note: n.note, handshake: n.handshake, reason: n.reason })),
  ],
  [
    'reinit-accepted',
    shape(['note', 'session', 'caps', 'transport'], (t, kind, n) => ({
      t,
      kind,
      note: n.note,
      session: n.session,
      caps: n.caps,
      transport: n.transport,
    })),
  ],
]);

const SERVER_NOTES = new Map<string, NoteShape>([
  [
    'call-finished',
    shape(['note', 'session', 'req', 'callId', 'transport'], (t, kind, n) => ({
      t,
      kind,
      note: n.note,
      session: n.session,
      req: n.req,
      callId: n.callId,
      transport: n.transport,
    })),
  ],
  [
    'session-opened',
    shape(['note', 'session', 'caps', 'transport', 'encoding'], (t, kind, n) => ({
      t,
      kind,
      note: n.note,
      session: n.session,
      caps: n.caps,
      transport: n.transport,
      encoding: n.encoding,
    })),
  ],
  ['session-forgotten', shape(['note', 'session', 'why'], (t, kind, n) => ({ t, kind, note: n.note, session: n.session, why: n.why }))],
  [
    'reinitialized',
    shape(['note', 'session', 'policy', 'caps', 'transport', 'encoding'], (t, kind, n) => ({
      t,
      kind,
      note: n.note,
      session: n.session,
      policy: n.policy,
      caps: n.caps,
      transport: n.transport,
      encoding: n.encoding,
    })),
  ],
]);

/** The notes with a literal, by machine, with their keys (for the test that holds each literal to the copy). */
export function literalNotes(): { kind: 'client' | 'server'; name: string; keys: readonly string[] }[] {
  return [
    ...[...CLIENT_NOTES].map(([name, s]) => ({ kind: 'client' as const, name, keys: s.keys })),
    ...[...SERVER_NOTES].map(([name, s]) => ({ kind: 'server' as const, name, keys: s.keys })),
  ];
}

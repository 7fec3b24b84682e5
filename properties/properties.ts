// The six properties of DESIGN.md as oracles over a history and its call outcomes. Each says
// whether it holds, whether its situation was reached at all (a property that holds only because
// nothing tested it is vacuous), and, when violated, why, in one line.
import { progressEncoding, type Transport } from '../models/capabilities.ts';
import type { History, HistoryEntry } from '../core/history.ts';
import type { CallOutcome } from './outcomes.ts';

export interface PropertyVerdict {
  holds: boolean;
  reached: boolean;
  why?: string;
}

export interface Property {
  name: string;
  holdsWhen: string;
  check(history: History, outcomes: readonly CallOutcome[]): PropertyVerdict;
}

/** The first call invoked after the last fault may fail while it finds the damage; every later one must be ok. */
export const RECOVERY_GRACE = 1;

function firstFaultTime(h: History): number | undefined {
  return h.entries.find((e) => e.kind === 'fault' && e.applied)?.t;
}

/** Some call ended after a fault had acted: the silent-failure properties had something to test. */
function callAfterFault(h: History, outcomes: readonly CallOutcome[]): boolean {
  const t = firstFaultTime(h);
  return t !== undefined && outcomes.some((o) => o.endedAt >= t);
}

function silentCall(outcomes: readonly CallOutcome[], kind: 'silent-empty' | 'silent-hang', h: History): PropertyVerdict {
  const bad = outcomes.find((o) => o.outcome === kind);
  const reached = callAfterFault(h, outcomes);
  if (!bad) return { holds: true, reached };
  const why =
    kind === 'silent-empty'
      ? `call ${bad.callId} returned a well-formed result that differs from the fault-free run's (${JSON.stringify(bad.end.end === 'result' ? bad.end.content : null)}) with no error`
      : `call ${bad.callId} ended only by the client's deadline at t=${bad.endedAt} ms though the server had finished it (answer ${'answer' in bad.end ? bad.end.answer : '?'})`;
  return { holds: false, reached: true, why };
}

const noSilentEmpty: Property = {
  name: 'no-silent-empty',
  holdsWhen: "no call returns a well-formed result that differs from the fault-free run's without an error",
  check: (h, outcomes) => silentCall(outcomes, 'silent-empty', h),
};

const noSilentHang: Property = {
  name: 'no-silent-hang',
  holdsWhen: 'no call ends only by the client deadline (or never) while the server finished it',
  check: (h, outcomes) => silentCall(outcomes, 'silent-hang', h),
};

const capsImmutable: Property = {
  name: 'caps-immutable',
  holdsWhen: "a session's negotiated capabilities never change without a session reset",
  check(h) {
    const first = new Map<string, string>();
    let reached = false;
    for (const e of h.entries) {
      if (e.kind !== 'server') continue;
      if (e.note === 'session-opened') first.set(e.session, JSON.stringify(e.caps));
      if (e.note === 'reinitialized' || e.note === 'reinit-rejected') reached = true;
      if (e.note === 'reinitialized' && e.newSession === undefined && first.get(e.session) !== JSON.stringify(e.caps)) {
        return { holds: false, reached, why: `session ${e.session} went from ${first.get(e.session)} to ${JSON.stringify(e.caps)} on a re-initialize (policy ${e.policy}) at t=${e.t} ms` };
      }
    }
    return { holds: true, reached };
  },
};

const transportExpressible: Property = {
  name: 'transport-expressible',
  holdsWhen: "no capability admitted for use is inexpressible in the session's actual transport",
  check(h) {
    const transport = new Map<string, Transport>();
    let reached = false;
    for (const e of h.entries) {
      if (e.kind === 'server' && e.note === 'session-opened') transport.set(e.session, e.transport);
      if (e.kind === 'server' && e.note === 'reinitialized' && e.newSession === undefined) transport.set(e.session, e.transport);
      if (e.kind === 'server' && e.note === 'transport-changed') transport.set(e.session, e.to);
      if (e.kind !== 'client' || e.note !== 'admit') continue;
      const actual = transport.get(e.session);
      if (actual === undefined) continue;
      if (actual !== 'streamable-http') reached = true;
      for (const { cap, encoding } of e.caps) {
        if (encoding !== progressEncoding(actual)) {
          return { holds: false, reached: true, why: `call ${e.callId} was admitted relying on ${cap} as ${encoding} progress, but session ${e.session} runs on ${actual}, which carries it as ${progressEncoding(actual)}` };
        }
      }
    }
    return { holds: true, reached };
  },
};

const contentTypeConsistent: Property = {
  name: 'content-type-consistent',
  holdsWhen: "every tools/call response's Content-Type matches the mode the client expects",
  check(h, outcomes) {
    const types = { sse: 'text/event-stream', json: 'application/json' } as const;
    for (const e of h.entries) {
      if (e.kind !== 'client' || e.note !== 'read' || e.expected === 'any') continue;
      if (e.contentType !== types[e.expected]) {
        return { holds: false, reached: true, why: `call ${e.callId}'s response (request ${e.req}) was ${e.contentType} where the client expected ${types[e.expected]}` };
      }
    }
    return { holds: true, reached: callAfterFault(h, outcomes) };
  },
};

const recovers: Property = {
  name: 'recovers',
  holdsWhen: `once the last fault has fired, calls return to ok within ${RECOVERY_GRACE} further call`,
  check(h, outcomes) {
    const faults = h.entries.filter((e): e is Extract<HistoryEntry, { kind: 'fault' }> => e.kind === 'fault');
    if (faults.length === 0) return { holds: true, reached: false };
    const last = faults[faults.length - 1]!.t;
    const after = outcomes.filter((o) => o.invokedAt > last);
    if (after.length <= RECOVERY_GRACE) return { holds: true, reached: false };
    const bad = after.slice(RECOVERY_GRACE).find((o) => o.outcome !== 'ok');
    if (!bad) return { holds: true, reached: true };
    return { holds: false, reached: true, why: `call ${bad.callId}, call number ${after.indexOf(bad) + 1} invoked after the last fault (t=${last} ms), was still ${bad.outcome}` };
  },
};

export const PROPERTIES: readonly Property[] = [noSilentEmpty, noSilentHang, capsImmutable, transportExpressible, contentTypeConsistent, recovers];

export type PropertyName = 'no-silent-empty' | 'no-silent-hang' | 'caps-immutable' | 'transport-expressible' | 'content-type-consistent' | 'recovers';

export function propertyByName(name: string): Property | undefined {
  return PROPERTIES.find((p) => p.name === name);
}

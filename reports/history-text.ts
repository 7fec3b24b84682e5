// One history entry as a line a person reads, with the lane it happened in (agent, client, the
// load balancer / proxy between them, server) and a tone for colouring. Shared by the Markdown and
// HTML reports, the Mermaid diagrams and `replay`. Entries of a kind it does not know are shown
// as their JSON, never dropped.
import type { HistoryEntry } from '../sim/core/history.ts';
import type { Outcome } from '../properties/outcomes.ts';
import { faultActs } from '../models/faults.ts';

export type Lane = 'agent' | 'client' | 'network' | 'server';
export type Tone = 'fault' | 'silent' | 'error' | 'ok' | 'info';

export interface Step {
  t: number;
  lane: Lane;
  tone: Tone;
  text: string;
}

/** A capability as a name: the admit note carries `{ cap, encoding }` objects, the others plain names. */
function capName(c: unknown): string {
  if (typeof c !== 'object' || c === null) return String(c);
  const o = c as { cap?: unknown; encoding?: unknown };
  return typeof o.cap === 'string' ? `${o.cap}${o.encoding === undefined ? '' : ` (${String(o.encoding)})`}` : JSON.stringify(c);
}

const list = (caps: unknown) => (Array.isArray(caps) ? `{${caps.map(capName).join(', ')}}` : String(caps));

function fields(e: Record<string, unknown>, skip: readonly string[]): string {
  return Object.entries(e)
    .filter(([k]) => !skip.includes(k))
    .map(([k, v]) => `${k}=${Array.isArray(v) ? list(v) : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join(' ');
}

function endText(e: Extract<HistoryEntry, { kind: 'end' }>, outcome: Outcome | undefined): { text: string; tone: Tone } {
  const o = outcome ? ` → ${outcome}` : '';
  const tone: Tone =
    outcome === 'silent-empty' || outcome === 'silent-hang' ? 'silent' : outcome === 'error' ? 'error' : outcome === 'ok' ? 'ok' : 'info';
  const tries = e.attempts > 1 ? ` after ${e.attempts} attempts` : '';
  switch (e.end) {
    case 'result':
      return {
        text: `call ${e.callId} returned ${e.content.length === 0 ? 'an empty result' : `${e.content.length} content item(s)`}${tries}${o}`,
        tone,
      };
    case 'error':
      return { text: `call ${e.callId} failed${tries}: ${e.reason}${o}`, tone };
    default:
      return {
        text: `call ${e.callId} ${e.end === 'deadline' ? 'ended by the client deadline' : 'never ended'} (server finished: ${e.serverFinished ? 'yes' : 'no'}, answer ${e.answer})${o}`,
        tone,
      };
  }
}

export function describeEntry(e: HistoryEntry, outcomes: ReadonlyMap<number, Outcome> = new Map()): Step {
  const t = e.t;
  switch (e.kind) {
    case 'invoke':
      return { t, lane: 'agent', tone: 'info', text: `call ${e.callId} invoked: ${e.method}${e.progress ? ' with progress' : ''}` };
    case 'end':
      return { t, lane: 'agent', ...endText(e, outcomes.get(e.callId)) };
    case 'request': {
      const extra = [
        e.callId !== undefined ? `call ${e.callId}` : '',
        e.headers['mcp-session-id'] ? `session ${e.headers['mcp-session-id']}` : 'no session',
        e.headers['last-event-id'] ? `Last-Event-ID ${e.headers['last-event-id']}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      return {
        t,
        lane: 'client',
        tone: 'info',
        text: `request ${e.req}: ${e.method} ${e.rpc} (${extra}; Accept: ${e.headers['accept'] ?? 'none'})`,
      };
    }
    case 'fault':
      return {
        t,
        // Where the fault acts (models/faults.ts): the client, the server, or the network between them.
        lane: faultActs(e.fault),
        tone: e.applied ? 'fault' : 'info',
        text: `fault ${e.fault} at request ${e.at}: ${e.applied ? e.detail : `no effect (${e.detail})`}`,
      };
    case 'response': {
      const body = e.body === 'sse' ? `SSE, ${e.events} event(s)${e.complete ? '' : ', cut'}` : e.body;
      const from = e.from === 'load-balancer' ? ' from the load balancer' : '';
      return {
        t,
        lane: e.from === 'load-balancer' ? 'network' : 'server',
        tone: e.status >= 400 ? 'error' : 'info',
        text: `response ${e.req}: ${e.status} ${e.contentType ?? '(no Content-Type)'} (${body})${from}${e.sessionId ? `, session ${e.sessionId}` : ''}, reaches the client at t=${e.deliverAt}`,
      };
    }
    case 'deliver':
      return { t, lane: 'client', tone: 'info', text: `response ${e.req} delivered` };
    case 'state':
      return { t, lane: e.machine, tone: 'info', text: `${e.machine} state ${e.from} → ${e.to}` };
    case 'budget-exhausted':
      return { t, lane: 'client', tone: 'error', text: `step budget of ${e.steps} events exhausted: run stopped` };
    case 'client':
    case 'server':
      return { t, lane: e.kind, tone: noteTone(e.note), text: noteText(e as unknown as Record<string, unknown>) };
    default:
      return { t, lane: 'client', tone: 'info', text: JSON.stringify(e) };
  }
}

function noteTone(note: string): Tone {
  if (['attempt-failed', 'handshake-failed', 'session-dead', 'reinit-rejected'].includes(note)) return 'error';
  if (['awaiting-progress', 'fallback', 'transport-changed'].includes(note)) return 'silent';
  return 'info';
}

function pinned(p: unknown): string {
  const b = p as { streaming?: boolean; progressInline?: boolean };
  return `${b.streaming ? 'SSE' : 'JSON'} answers, ${b.progressInline ? 'inline' : 'no inline'} progress`;
}

function noteText(e: Record<string, unknown>): string {
  const who = e.kind as string;
  switch (e.note) {
    case 'session-opened':
      return `${who}: session ${e.session} opened on ${e.transport} with ${list(e.caps)}${e.pinned ? `; parser pinned to ${pinned(e.pinned)}` : ''}`;
    case 'reinitialized':
      return `server: re-initialize of ${e.session} (${e.policy}) → ${list(e.caps)} on ${e.transport}${e.newSession ? `, new session ${e.newSession}` : ''}`;
    case 'read':
      return `client reads call ${e.callId}'s response (request ${e.req}) as ${e.expected === 'any' ? 'its Content-Type says' : String(e.expected).toUpperCase()}: Content-Type ${e.contentType}`;
    case 'handshake-sent':
      return `client sends ${e.handshake} initialize${e.session ? ` on ${e.session}` : ''} with ${list(e.caps)}`;
    default:
      return `${who}: ${e.note} ${fields(e, ['t', 'kind', 'note'])}`.trimEnd();
  }
}

/** `t=20 ms  network  fault http-502 at request 2: …` — always one line: a line break in a policy's
 *  text is shown as `\n`, so that no text can start a line of its own in a report (a heading, a fence). */
export function stepLine(s: Step): string {
  return `t=${String(s.t).padStart(6)} ms  ${s.lane.padEnd(7)}  ${s.text.replace(/\r?\n|\r/g, '\\n')}`;
}

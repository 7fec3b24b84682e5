// A history as a Mermaid sequence diagram (GitHub renders these in Markdown): the client, the load
// balancer / proxy and the server as participants, every request and response as an arrow with its
// virtual time, the faults in orange and the silent outcomes in red boxes, the step where the session
// went wrong in a blue one, a note where a second or more of virtual time passes, the rest as notes. Text is escaped with
// Mermaid's entity codes, so no history string can break the diagram.
import type { HistoryEntry } from '../sim/core/history.ts';
import type { Outcome } from '../properties/outcomes.ts';
import { faultActs } from '../models/faults.ts';
import { describeEntry } from './history-text.ts';

const ENTITY: Record<string, string> = { '#': '#35;', ';': '#59;', '<': '#60;', '>': '#62;', '"': '#quot;', '%': '#37;', '`': '#96;' };

/** Mermaid message text: one line, with the characters its grammar reserves as entity codes. */
export function mermaidText(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .slice(0, 160)
    .replace(/[#;<>"`]|%(?=%)/g, (ch) => ENTITY[ch]!);
}

const NOTES: Record<string, string> = {
  'client:session-opened': 'C',
  'client:reinit-accepted': 'C',
  'client:fallback': 'C',
  'client:session-dead': 'C',
  'client:attempt-failed': 'C',
  'client:awaiting-progress': 'C',
  'client:probe': 'C',
  'client:reconnect': 'C',
  'client:session-id-changed': 'C',
  'client:resume': 'C',
  'server:reinitialized': 'S',
  'server:reinit-rejected': 'S',
  'server:transport-changed': 'S',
  'server:session-forgotten': 'S',
  'server:call-finished': 'S',
};

/** A time gap worth a note of its own (a deadline, a delay): at least a second of virtual time. */
const GAP_MS = 1000;

const seconds = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s` : `${ms} ms`);

/** `marked`: the index of the entry where the session went wrong (compare/causes.ts), shown in a
 *  blue box. Every arrow and note carries its virtual time; a gap of a second or more gets a note. */
export function sequenceDiagram(
  entries: readonly HistoryEntry[],
  outcomes: ReadonlyMap<number, Outcome> = new Map(),
  marked: number | null = null,
): string {
  const from = new Map<number, 'server' | 'load-balancer'>();
  const answers = new Map<number, string>();
  for (const e of entries) {
    if (e.kind !== 'response') continue;
    from.set(e.req, e.from);
    answers.set(
      e.req,
      `${e.status} ${e.contentType ?? ''}${e.body === 'sse' ? ` SSE ${e.events} event(s)${e.complete ? '' : ' CUT'}` : ''}`.trim(),
    );
  }
  const lines = ['sequenceDiagram', '  participant C as client', '  participant N as load balancer / proxy', '  participant S as server'];
  const note = (over: string, text: string) => lines.push(`  Note over ${over}: ${mermaidText(text)}`);
  const box = (over: string, text: string, colour: string) => {
    lines.push(`  rect ${colour}`);
    note(over, text);
    lines.push('  end');
  };
  const marked_ = (text: string) => box('C,S', text, 'rgb(187, 222, 251)');
  let now = 0;
  for (const [i, e] of entries.entries()) {
    if (e.t - now >= GAP_MS) note('C,S', `⏱ ${seconds(e.t - now)} of virtual time pass (t=${e.t} ms)`);
    now = e.t;
    if (i === marked) {
      const step = describeEntry(e, outcomes);
      marked_(`▶ where the session went wrong (t=${e.t} ms): ${step.text}`);
      if (e.kind !== 'request' && e.kind !== 'response' && e.kind !== 'deliver') continue;
    }
    switch (e.kind) {
      case 'invoke':
        note('C', `t=${e.t}: agent: call ${e.callId}${e.progress ? ' with progress' : ''}`);
        break;
      case 'end': {
        const step = describeEntry(e, outcomes);
        if (step.tone === 'silent') box('C', `✖ t=${e.t}: ${step.text}`, 'rgb(255, 205, 210)');
        else note('C', `t=${e.t}: ${step.text}`);
        break;
      }
      case 'request': {
        const sid = e.headers['mcp-session-id'];
        const text = `t=${e.t} · ${e.req}: ${e.method} ${e.rpc}${e.callId !== undefined ? ` call ${e.callId}` : ''}${sid ? ` [${sid}]` : ''}`;
        lines.push(`  C->>N: ${mermaidText(text)}`);
        if (from.get(e.req) === 'server') lines.push(`  N->>S: ${mermaidText(text)}`);
        break;
      }
      case 'fault': {
        const where = ({ client: 'C', server: 'S', network: 'N' } as const)[faultActs(e.fault)];
        const text = `⚡ ${e.fault} (request ${e.at}) t=${e.t}: ${e.applied ? e.detail : `no effect, ${e.detail}`}`;
        if (e.applied) box(where, text, 'rgb(255, 224, 178)');
        else note(where, text);
        break;
      }
      case 'response':
        if (e.from === 'server') lines.push(`  S-->>N: ${mermaidText(`t=${e.t} · ${e.req}: ${answers.get(e.req)}`)}`);
        break;
      case 'deliver':
        lines.push(`  N-->>C: ${mermaidText(`t=${e.t} · ${e.req}: ${answers.get(e.req) ?? 'response'}`)}`);
        break;
      case 'client':
      case 'server': {
        const over = NOTES[`${e.kind}:${e.note}`];
        if (over) note(over, describeEntry(e, outcomes).text);
        break;
      }
      case 'budget-exhausted':
        box('C', `step budget exhausted after ${e.steps} events`, 'rgb(255, 205, 210)');
        break;
      default:
        break;
    }
  }
  return lines.join('\n');
}

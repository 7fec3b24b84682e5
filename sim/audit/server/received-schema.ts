// Every message the audit's model client receives during a fault scenario (its fault-free run, its
// faulted run, the spec-literal client's run), checked against the revision's schema as the probes'
// messages are (message-schema.ts): the message-schema probe sees only the common requests of a
// calm session, while a server may send a malformed message only under a fault (a replayed stream, an
// error after a restart). A malformed one is a finding of the scenario's row, naming the field; a
// row whose messages are all well-formed gains no check (the probe says what conforms).
import type { Revision } from '../../../models/policies.ts';
import type { SpecCheck } from '../../core/audit-verdict.ts';
import { malformedField, schemaSource } from './message-schema.ts';
import { checkOf } from './spec-lens.ts';

/** How many malformed messages a row's evidence names (the count says the rest). */
const NAMED = 3;

export class ReceivedSchema {
  private readonly malformed: string[] = [];
  private checked = 0;
  private bad = 0;

  constructor(private readonly revision: Revision) {}

  /** For runWire's onMessage: a JSON-RPC answer to a request the server accepted, or a message of its
   *  stream, is checked; an HTTP error's body need not be JSON-RPC (as the probes judge it), and a 202
   *  carries no message (a body there, @hono/mcp's `null`, is post-notification-202's finding). */
  readonly onMessage = (answers: string, status: number, message: unknown): void => {
    if (status >= 400 || status === 202) return;
    this.checked++;
    const isAnswer = message !== null && typeof message === 'object' && !('method' in message);
    const field = malformedField(this.revision, isAnswer ? answers : null, message);
    if (!field) return;
    this.bad++;
    const what = isAnswer ? `the answer to ${answers}` : String((message as { method?: unknown })?.method ?? 'a message');
    const line = `${what} → ${field}`;
    if (!this.malformed.includes(line)) this.malformed.push(line);
  };

  /** The finding: `<revision>/message-schema` violated, with the fields named; null when every message was well-formed. */
  finding(): SpecCheck | null {
    if (!this.malformed.length) return null;
    const named = this.malformed.slice(0, NAMED).join('; ');
    const more = this.malformed.length > NAMED ? ` (and ${this.malformed.length - NAMED} more)` : '';
    const evidence = `${this.bad} of the ${this.checked} messages received in this scenario's runs malformed against ${schemaSource(this.revision)}: ${named}${more}`;
    return checkOf(`${this.revision}/message-schema`, { verdict: 'violates', evidence });
  }
}

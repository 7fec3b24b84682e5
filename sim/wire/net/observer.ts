// What the network can tell about a server it cannot reach into, from the traffic alone: a session
// opened (an InitializeResult with a new `Mcp-Session-Id`), re-initialized or refused, a call
// finished (its JSON-RPC result passed the network, whether or not it then reached the client).
// These become the same `server` notes the model server writes, so `caps-immutable` and
// `transport-expressible` judge real servers too.
import { capabilitiesFromJson, META_TRANSPORT } from '../protocol/json-rpc.ts';
import type { Recorder } from '../protocol/recorder.ts';
import { progressEncoding, type Transport } from '../../../models/capabilities.ts';

export interface ObservedRequest {
  n: number;
  rpc: string;
  sessionId: string | null;
  callId?: number;
}

export class Observer {
  /** Sessions seen opened, with the transport their InitializeResult named. */
  private readonly transports = new Map<string, Transport>();

  constructor(
    private readonly recorder: Recorder,
    private readonly writesNotes: boolean,
  ) {}

  /** A JSON-RPC message from the server answering request `req`; `responseSession` is the response's `Mcp-Session-Id`. */
  onMessage(req: ObservedRequest, status: number, responseSession: string | null, message: any): void {
    if (!this.writesNotes || message === null || typeof message !== 'object') return;
    if (req.rpc === 'initialize') {
      if ('result' in message) {
        const caps = capabilitiesFromJson(message.result?.capabilities);
        const transport = (message.result?._meta?.[META_TRANSPORT] ?? 'streamable-http') as Transport;
        // The traffic does not say how the server will carry progress: the records' server build is assumed
        // (inline on Streamable HTTP, frames on SSE); a real server that does otherwise shows in the client's reads.
        const encoding = progressEncoding(transport);
        const session = responseSession ?? req.sessionId ?? '(stateless)';
        if (req.sessionId === null || !this.transports.has(req.sessionId)) {
          this.transports.set(session, transport);
          this.note({ note: 'session-opened', session, caps, transport, encoding });
        } else {
          const fresh = session !== req.sessionId ? session : undefined;
          if (fresh) this.transports.set(fresh, transport);
          const newSession = fresh ? { newSession: fresh } : {};
          this.note({ note: 'reinitialized', session: req.sessionId, policy: 'observed', caps, transport, encoding, ...newSession });
        }
      } else if (status === 400 && message.error?.code === -32600 && req.sessionId !== null) {
        this.note({ note: 'reinit-rejected', session: req.sessionId });
      }
      return;
    }
    if (req.rpc === 'tools/call' && 'result' in message && req.callId !== undefined) {
      const session = req.sessionId ?? '(stateless)';
      // Once per call: made in its final key order, not spread by note().
      this.recorder.append({
        t: this.recorder.now,
        kind: 'server',
        note: 'call-finished',
        session,
        req: req.n,
        callId: req.callId,
        transport: this.transports.get(session) ?? 'streamable-http',
      });
    }
  }

  forgotten(sessions: readonly string[], why: 'expired' | 'restart'): void {
    if (!this.writesNotes) return;
    for (const session of sessions) this.note({ note: 'session-forgotten', session, why });
  }

  private note(
    n: Parameters<Recorder['record']>[0] extends infer E ? (E extends { kind: 'server' } ? Omit<E, 'kind'> : never) : never,
  ): void {
    this.recorder.record({ kind: 'server', ...n } as never);
  }
}

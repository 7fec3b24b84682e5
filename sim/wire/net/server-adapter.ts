// What the fault network needs from whatever answers behind it: the model server, the SDK's
// server in-process, or a real server on loopback. Faults that need the server's cooperation
// (`session-expire`, `server-restart`) go through it; a server that cannot be reached into says so,
// and the network records those faults as skipped.
export interface ServerAdapter {
  /** How reports name it: `model`, `sdk-sse`, `sdk-json`, `target http://…`, `serve …`. */
  readonly name: string;
  /** True when the server writes its own `server` notes into the history (the model server);
   *  otherwise the network derives them from what it sees (observer.ts). */
  readonly notesItself: boolean;
  /** Null when it can act on the fault; otherwise why it cannot (recorded, and reported). */
  cannot(fault: 'session-expire' | 'server-restart', sessionId?: string | null): string | null;
  /** True when `handle` may be given the request's parsed JSON body in place of the body (the request then
   *  has none): the in-process SDK server, whose transport takes `parsedBody` as it does behind express.json(). */
  readonly takesParsedBody?: boolean;
  /** Answer one request. `n` is the network's index of it; `parsedBody`, only for a server that takes it. */
  handle(request: Request, n: number, parsedBody?: unknown): Promise<Response>;
  /** Forget one session (the one named, or the newest): the ids forgotten. */
  expire(sessionId: string | null): Promise<string[]>;
  /** Forget every session: the ids forgotten. */
  restart(): Promise<string[]>;
  close(): Promise<void>;
}

export interface ClientHooks {
  /** `config-reset`: true when the client has a mutable config and it was reset. */
  configReset(): boolean;
}

// The session table both official SDK servers keep for the 2025-11-25 revision (wire/peers/sdk-server.ts
// for v1, wire/peers/sdk2-server.ts for v2): one transport + server pair per session, routed by
// `Mcp-Session-Id` as the SDK's own example server does (examples/server/simpleStreamableHttp: a new
// session on an initialize without an id, 404 -32001 for an unknown id, 400 for a non-initialize
// without one). Session ids count up instead of `randomUUID()`, so that histories are byte-identical
// run to run. A preset says how to build one session's pair with its SDK; the routing is here once.

/** What the table needs of an SDK's session transport. */
export interface SessionTransport {
  handleRequest(request: Request, options?: { parsedBody?: unknown }): Promise<Response>;
}

/** What the table needs of an SDK's server. */
export interface SessionServer<T> {
  connect(transport: T): Promise<void>;
  close(): Promise<void>;
}

export interface SessionPair<T extends SessionTransport> {
  transport: T;
  server: SessionServer<T>;
}

/** Build a new session's pair (not yet connected) whose id is `id`; the transport calls `initialized`
 *  with the id once the SDK has initialized the session. */
export type OpenSession<T extends SessionTransport> = (id: string, initialized: (sessionId: string) => void) => SessionPair<T>;

export class SdkSessionTable<T extends SessionTransport> {
  private readonly sessions = new Map<string, SessionPair<T>>();
  private next = 1;

  constructor(
    /** Session ids are `${prefix}-1`, `${prefix}-2`, … */
    private readonly prefix: string,
    private readonly isInitializeRequest: (body: unknown) => boolean,
    private readonly open: OpenSession<T>,
  ) {}

  /** `parsedBody`: the request's JSON body, already parsed by the caller (the request then carries none). */
  async handle(request: Request, parsedBody?: unknown): Promise<Response> {
    const sid = request.headers.get('mcp-session-id');
    const live = sid === null ? undefined : this.sessions.get(sid);
    if (live) return live.transport.handleRequest(request, parsedBody !== undefined ? { parsedBody } : undefined);
    let body: unknown = parsedBody;
    if (request.method === 'POST' && body === undefined)
      body = await request
        .clone()
        .json()
        .catch(() => undefined);
    if (sid === null && body !== undefined && this.isInitializeRequest(body)) {
      const pair = this.open(`${this.prefix}-${this.next++}`, (sessionId) => void this.sessions.set(sessionId, pair));
      await pair.server.connect(pair.transport);
      return pair.transport.handleRequest(request, { parsedBody: body });
    }
    if (sid !== null)
      return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }, { status: 404 });
    return Response.json(
      { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } },
      { status: 400 },
    );
  }

  /** Forget one session: the one named, or the newest when none is (or it is unknown). */
  async expire(sessionId: string | null): Promise<string[]> {
    const ids = [...this.sessions.keys()];
    const id = sessionId !== null && this.sessions.has(sessionId) ? sessionId : ids[ids.length - 1];
    if (id === undefined) return [];
    await this.forget(id);
    return [id];
  }

  /** Forget every session. */
  async restart(): Promise<string[]> {
    const ids = [...this.sessions.keys()];
    for (const id of ids) await this.forget(id);
    return ids;
  }

  private async forget(id: string): Promise<void> {
    const s = this.sessions.get(id);
    this.sessions.delete(id);
    await s?.server.close().catch(() => {});
  }
}

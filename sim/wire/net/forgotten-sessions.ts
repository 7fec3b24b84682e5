// `session-expire` against a server the tool cannot reach into (a process on loopback, a handler):
// the proxy forgets the session on the server's behalf. From the fault on, every request that
// carries the forgotten id reaches the server with an id of the same shape that the server never
// issued — so the server answers exactly as it answers a session it no longer knows, which is what
// the 2025-11-25 text binds (404). Deterministic: the stand-in id is derived from the real one.

/** Each character moved one step within its class (hex digit, letter, digit); the rest kept. */
export function neverIssued(id: string): string {
  let out = '';
  for (const c of id) {
    if (/[0-9]/.test(c)) out += String((Number(c) + 1) % 10);
    else if (/[a-z]/.test(c)) out += c === 'f' ? 'a' : c === 'z' ? 'g' : String.fromCharCode(c.charCodeAt(0) + 1);
    else if (/[A-Z]/.test(c)) out += c === 'F' ? 'A' : c === 'Z' ? 'G' : String.fromCharCode(c.charCodeAt(0) + 1);
    else out += c;
  }
  return out === id ? `${id}-forgotten` : out;
}

export class ForgottenSessions {
  private readonly ids = new Map<string, string>();

  /** Forget `id` at the proxy; the stand-in its requests will carry. */
  forget(id: string): string {
    const stand = neverIssued(id);
    this.ids.set(id, stand);
    return stand;
  }

  /** The id a request carrying `id` is forwarded with, or null when it was not forgotten. */
  standIn(id: string | undefined): string | null {
    return id === undefined ? null : (this.ids.get(id) ?? null);
  }
}

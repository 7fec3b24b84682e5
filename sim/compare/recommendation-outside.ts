// What the vocabulary lacks, per mechanism: for a silent failure that defeats every combination of a
// scope (compare/recommendation.ts), what a designer would need from outside the knobs the protocol
// offers today. Written from docs/design.md's account of each mechanism; a mechanism with no entry has
// nothing said of it (null), never a guess.
const OUTSIDE: Readonly<Record<string, string>> = {
  'duplicate-execution':
    'idempotency on the server, which answers a request re-sent after a reconnect without running the tool again (the closed SEP-3182); as published, a client can only not re-send (client.reissue), trading the duplicate for a refused call',
  'cut-stream-read-empty':
    'an end-of-stream marker the client can check: a parser that tells a cut SSE stream from a complete one (client.parser=adaptive reads the transport, not the stream’s end)',
  'cut-stream-hang':
    'a deadline the server can be asked to honour, or resumption of a cut stream the client relies on (Last-Event-ID, 2025-11-25 only)',
};

/** What outside the vocabulary would fix `mechanism`, or null when nothing is said of it. */
export function outsideVocabulary(mechanism: string): string | null {
  return OUTSIDE[mechanism] ?? null;
}

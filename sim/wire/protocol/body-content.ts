// What a response body is, read from its bytes, for the audit's evidence: a real server's JSON error
// sent without a Content-Type is still JSON with a JSON-RPC code, and a page labelled application/json
// is not JSON. The network's body kind (wire-headers.ts bodyKind) follows the Content-Type, as a
// client does; evidence that said only that read "404 - empty" for a JSON error (issue 37 item 9).
// And a request's body read as text the way `Request.text()` reads it, for less (the network's hot path):
// 1.3 KB allocated per tools/call request against text()'s 3.2 KB (V8 heap sampling of FaultNetwork.carry
// in front of the in-process SDK server, 4000 requests, 2026-12-05); test/sim/wire/protocol/body-content.test.ts
// holds it equal to text() over chunk boundaries, BOMs and bad bytes.

/** A content type without its parameters, lower-cased ('' for none). */
function essence(type: string | null): string {
  if (type === null) return '';
  const semi = type.indexOf(';');
  return (semi < 0 ? type : type.slice(0, semi)).trim().toLowerCase();
}

const SNIPPET = 40;
const bytes = (text: string) => new TextEncoder().encode(text).length;

function snippet(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(one.length > SNIPPET ? `${one.slice(0, SNIPPET - 1)}…` : one);
}

function parsedJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** `JSON (JSON-RPC -32001)`, or `JSON` where the value carries no JSON-RPC error code. */
function jsonWithCode(value: unknown): string {
  const code = (value as { error?: { code?: unknown } } | null)?.error?.code;
  return typeof code === 'number' ? `JSON (JSON-RPC ${code})` : 'JSON';
}

/**
 * What a whole (not streamed) body is where its Content-Type does not say it: undefined where the
 * label is true (JSON under application/json, no body under no JSON type). An SSE body is not read here.
 */
export function mislabelledBody(contentType: string | null, text: string): string | undefined {
  const type = essence(contentType);
  if (type === 'text/event-stream') return undefined;
  if (text === '') return type === 'application/json' ? 'no body (labelled application/json)' : undefined;
  const json = parsedJson(text);
  if (type === 'application/json') return json.ok ? undefined : `not JSON (${bytes(text)} bytes: ${snippet(text)})`;
  if (json.ok) return `${jsonWithCode(json.value)} sent ${type ? `as ${type}` : 'without a Content-Type'}`;
  return `text, ${bytes(text)} bytes: ${snippet(text)}`;
}

/** Every whole body described by what it is: `empty`, `json`, or what mislabelledBody says. */
export function bodyContent(contentType: string | null, text: string): string {
  const wrong = mislabelledBody(contentType, text);
  if (wrong !== undefined) return wrong;
  return text === '' ? 'empty' : 'json';
}

/** One decoder for every whole body: `decode` without `stream` keeps no state between calls. */
const WHOLE = new TextDecoder();
const STREAMING = { stream: true } as const;

/**
 * A body's text as `Request.text()` gives it (UTF-8, a leading BOM dropped, bad bytes replaced), read
 * from its stream: a body of one chunk (the usual request) is decoded by a shared decoder, where text()
 * copies the bytes into one buffer and makes its promise chain (the figure: this file's header).
 */
export async function bodyText(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (body === null) return '';
  const reader = body.getReader();
  const first = await reader.read();
  if (first.done) return '';
  const second = await reader.read();
  if (second.done) return WHOLE.decode(first.value);
  const decoder = new TextDecoder();
  let text = decoder.decode(first.value, STREAMING) + decoder.decode(second.value, STREAMING);
  for (;;) {
    const next = await reader.read();
    if (next.done) return text + decoder.decode();
    text += decoder.decode(next.value, STREAMING);
  }
}

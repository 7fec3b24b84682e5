// What a response body is, read from its bytes, for the audit's evidence: a real server's JSON error
// sent without a Content-Type is still JSON with a JSON-RPC code, and a page labelled application/json
// is not JSON. The network's body kind (wire-headers.ts bodyKind) follows the Content-Type, as a
// client does; evidence that said only that read "404 - empty" for a JSON error (issue 37 item 9).

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

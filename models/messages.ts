// The model's wire: HTTP requests and responses carrying JSON-RPC, as plain data. Header names
// are lower-case. The wire tier maps these onto real Request/Response objects.
import type { CapabilitySet, Transport } from './capabilities.ts';

/** The 2026-07-28 revision's per-request `_meta`: the revision and the client's capabilities now,
 *  in place of a session's handshake (`io.modelcontextprotocol/protocolVersion`, `…/clientCapabilities`). */
export interface RequestMeta {
  protocolVersion: '2026-07-28';
  clientCapabilities: CapabilitySet;
}

export type RequestBody =
  | { rpc: 'initialize'; capabilities: CapabilitySet; transport: Transport }
  | { rpc: 'notifications/initialized' }
  | { rpc: 'tools/call'; callId: number; tool: Tool; progressToken: string | null; meta?: RequestMeta }
  | { rpc: 'tools/list'; meta?: RequestMeta }
  /** 2026-07-28: what the server speaks and offers, in place of `initialize`. */
  | { rpc: 'server/discover'; meta: RequestMeta }
  /** GET on the MCP endpoint with `Last-Event-ID`: resume a cut SSE stream (spec resumability). */
  | { rpc: 'resume' };

/** The server's tools: `work` has a side effect, `lookup` is annotated `idempotentHint: true`, `probe`
 *  is the probe guard's. */
export type Tool = 'work' | 'lookup' | 'probe';

export interface HttpRequest {
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body: RequestBody;
  /** The connection will close before the answer is written (`connection-reset`): a 2026-07-28
   *  server treats that as cancellation; a 2025-11-25 one runs the request to the end. */
  closing?: true;
}

/** What a client reads when the connection closed under it: no status, no body (a network error). */
export const CONNECTION_RESET: HttpResponse = { status: 0, headers: {}, body: { kind: 'empty' } };

export interface TextContent {
  type: 'text';
  text: string;
}

export interface InitializeResult {
  capabilities: CapabilitySet;
  /** The transport the session actually runs on (record 003: the client logs `transport: sse (fallback)`). */
  transport: Transport;
}

export interface CallResult {
  content: TextContent[];
  /** Inline progress (record 003's Streamable HTTP encoding): present only when progress was asked for
   *  and the session's transport carries it inline. */
  progressToken?: string;
  progress?: number[];
}

export interface ListResult {
  tools: string[];
}

/** 2026-07-28 `server/discover`: the revisions the server speaks and its capabilities. */
export interface DiscoverResult {
  supportedVersions: string[];
  capabilities: CapabilitySet;
}

export type RpcResult = InitializeResult | CallResult | ListResult | DiscoverResult | Record<string, never>;

export type JsonRpcMessage = { result: RpcResult } | { error: { code: number; message: string } };

export interface ProgressFrame {
  progressToken: string;
  progress: number;
}

export interface SseEvent {
  /** `<stream>:<n>`: what a client sends back as `Last-Event-ID` to resume. */
  id: string;
  /** `other`: an event that carries no JSON-RPC message (a priming event, a keep-alive, an event type the
   *  client does not know), kept for its id: the last id received is what a resumption sends back. */
  event: 'message' | 'progress' | 'other';
  data: JsonRpcMessage | ProgressFrame | string;
}

export type ResponseBody =
  | { kind: 'json'; message: JsonRpcMessage }
  /** `complete` is false when the stream ended before its final event (a cut). */
  | { kind: 'sse'; events: SseEvent[]; complete: boolean }
  | { kind: 'empty' };

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: ResponseBody;
}

export const JSON_TYPE = 'application/json';
export const SSE_TYPE = 'text/event-stream';

export const JSONRPC = {
  invalidRequest: -32600,
  sessionNotFound: -32001,
  methodNotFound: -32601,
  /** 2026-07-28: the `MCP-Protocol-Version` header does not match the request's `_meta`. */
  headerMismatch: -32020,
} as const;

export function jsonResponse(status: number, message: JsonRpcMessage, headers?: Record<string, string>): HttpResponse {
  return {
    status,
    headers: headers ? withJsonType(headers) : { 'content-type': JSON_TYPE },
    body: { kind: 'json', message },
  };
}

/** `{ 'content-type': JSON_TYPE, ...headers }` by a loop, same keys in the same order (a spread after a
 *  key is V8's slow path; a new session's answer takes it). */
function withJsonType(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { 'content-type': JSON_TYPE };
  for (const k in headers) out[k] = headers[k]!;
  return out;
}

export function errorResponse(status: number, code: number, message: string): HttpResponse {
  return jsonResponse(status, { error: { code, message } });
}

export function emptyResponse(status: number, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers, body: { kind: 'empty' } };
}

export function contentType(res: HttpResponse): string | undefined {
  return res.headers['content-type'];
}

/** The final JSON-RPC message of a response, wherever the body carries it. */
export function finalMessage(res: HttpResponse): JsonRpcMessage | undefined {
  if (res.body.kind === 'json') return res.body.message;
  if (res.body.kind === 'sse') {
    const { events } = res.body;
    for (let i = events.length - 1; i >= 0; i--) if (events[i]!.event === 'message') return events[i]!.data as JsonRpcMessage;
    return undefined;
  }
  return undefined;
}

export function isResult(m: JsonRpcMessage | undefined): m is { result: RpcResult } {
  return m !== undefined && 'result' in m;
}

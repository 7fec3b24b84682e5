// The model's wire: HTTP requests and responses carrying JSON-RPC, as plain data. Header names
// are lower-case. The wire tier maps these onto real Request/Response objects.
import type { CapabilitySet, Transport } from './capabilities.ts';

export type Rpc = 'initialize' | 'notifications/initialized' | 'tools/call' | 'tools/list' | 'resume';

export type RequestBody =
  | { rpc: 'initialize'; capabilities: CapabilitySet; transport: Transport }
  | { rpc: 'notifications/initialized' }
  | { rpc: 'tools/call'; callId: number; tool: 'work' | 'probe'; progressToken: string | null }
  | { rpc: 'tools/list' }
  /** GET on the MCP endpoint with `Last-Event-ID`: resume a cut SSE stream (spec resumability). */
  | { rpc: 'resume' };

export interface HttpRequest {
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body: RequestBody;
}

export interface TextContent {
  type: 'text';
  text: string;
}

export interface InitializeResult {
  capabilities: CapabilitySet;
  /** The transport the session actually runs on (seed 003: the client logs `transport: sse (fallback)`). */
  transport: Transport;
}

export interface CallResult {
  content: TextContent[];
  /** Inline progress (seed 003's Streamable HTTP encoding): present only when progress was asked for
   *  and the session's transport carries it inline. */
  progressToken?: string;
  progress?: number[];
}

export interface ListResult {
  tools: string[];
}

export type RpcResult = InitializeResult | CallResult | ListResult | Record<string, never>;

export type JsonRpcMessage = { result: RpcResult } | { error: { code: number; message: string } };

export interface ProgressFrame {
  progressToken: string;
  progress: number;
}

export interface SseEvent {
  /** `<stream>:<n>`: what a client sends back as `Last-Event-ID` to resume. */
  id: string;
  event: 'message' | 'progress';
  data: JsonRpcMessage | ProgressFrame;
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
} as const;

export function jsonResponse(status: number, message: JsonRpcMessage, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body: { kind: 'json', message } };
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
    const last = res.body.events.findLast((e) => e.event === 'message');
    return last?.data as JsonRpcMessage | undefined;
  }
  return undefined;
}

export function isResult(m: JsonRpcMessage | undefined): m is { result: RpcResult } {
  return m !== undefined && 'result' in m;
}

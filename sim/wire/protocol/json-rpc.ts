// The model's messages (models/messages.ts) as real MCP JSON-RPC, both ways, checked against the
// official SDK's zod schemas. The records' capabilities are server-build extensions that no MCP
// schema revision has; on the wire they are:
//   tools.streaming      → `capabilities.tools.streaming: true`
//   streaming-progress   → `capabilities.experimental['streaming-progress']: {}`
// The SDK's own schemas strip unknown keys when they parse, so the extensions are read from the
// raw JSON after the schema has accepted the message. Two more extensions carry model data the
// MCP schema has no field for, under `_meta` (which every result and request may carry):
//   `_meta['io.faultsim/call']`      the workload's call id on a tools/call (so the network, the
//                                    servers and the history agree on which call a request is)
//   `_meta['io.faultsim/transport']` the transport a model server's session runs on (record 003's
//                                    `transport: sse (fallback)`), on its InitializeResult
// The model's inline progress (record 003's Streamable HTTP encoding) is the record's result fields
// `progressToken` and `progress`; its SSE encoding is `event: progress` frames. Neither is the
// spec's `notifications/progress`, which the SDK sends and reads.
import {
  InitializeRequestSchema,
  InitializeResultSchema,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
} from '@modelcontextprotocol/sdk/types.js';
import { FAULTSIM_TOOLS, type ToolMap } from './tool-maps.ts';
import { capSet, has, type Capability, type CapabilitySet, type Transport } from '../../../models/capabilities.ts';
import type {
  CallResult,
  DiscoverResult,
  InitializeResult,
  JsonRpcMessage,
  ListResult,
  RequestBody,
  RequestMeta,
  RpcResult,
  TextContent,
} from '../../../models/messages.ts';

export const META_CALL = 'io.faultsim/call';
export const META_TRANSPORT = 'io.faultsim/transport';
export const PROTOCOL_VERSION = LATEST_PROTOCOL_VERSION;

type Json = Record<string, any>;

export function capabilitiesToJson(caps: CapabilitySet): Json {
  const out: Json = {};
  if (has(caps, 'tools') || has(caps, 'tools.streaming')) out.tools = has(caps, 'tools.streaming') ? { streaming: true } : {};
  if (has(caps, 'resources')) out.resources = {};
  if (has(caps, 'streaming-progress')) out.experimental = { 'streaming-progress': {} };
  return out;
}

export function capabilitiesFromJson(json: unknown): CapabilitySet {
  const c = (json ?? {}) as Json;
  const caps: Capability[] = [];
  if (c.tools) caps.push('tools');
  return withRecordCapabilities(c, caps);
}

/** A real client's capabilities as the model server reads them: no schema revision has a client
 *  `tools` capability, so a client that opens a session asks for tools by doing so (the model client
 *  always lists it). Read without it, a client that checks the server's `tools` before calling (the AI
 *  SDK's does) refused every call. The records' extensions still need the client to name them. */
function clientCapabilitiesFromJson(json: unknown): CapabilitySet {
  return withRecordCapabilities((json ?? {}) as Json, ['tools']);
}

function withRecordCapabilities(c: Json, caps: Capability[]): CapabilitySet {
  if (c.tools?.streaming === true) caps.push('tools.streaming');
  if (c.resources) caps.push('resources');
  if (c.experimental?.['streaming-progress']) caps.push('streaming-progress');
  return capSet(caps);
}

export const CLIENT_INFO = { name: 'mcp-faultsim model client', version: '0.1.0' };

/** A model request body as a JSON-RPC message (`id` is the client's request number). Null for a GET. */
export function requestToJson(body: RequestBody, id: number, tools: ToolMap): Json | null {
  switch (body.rpc) {
    case 'initialize':
      return {
        jsonrpc: '2.0',
        id,
        method: 'initialize',
        params: { protocolVersion: PROTOCOL_VERSION, capabilities: capabilitiesToJson(body.capabilities), clientInfo: CLIENT_INFO },
      };
    case 'notifications/initialized':
      return { jsonrpc: '2.0', method: 'notifications/initialized' };
    case 'tools/call': {
      const tool = body.progressToken !== null || body.tool === 'probe' ? tools.progress : tools.plain;
      const _meta: Json = { [META_CALL]: body.callId, ...(body.meta ? metaToJson(body.meta) : {}) };
      if (body.progressToken !== null) _meta.progressToken = body.progressToken;
      // The model server tells the probe apart by name; real servers get the progress tool.
      const name = body.tool !== 'work' && tools === FAULTSIM_TOOLS ? body.tool : tool.name;
      return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: tool.args(body.callId), _meta } };
    }
    case 'tools/list':
      return { jsonrpc: '2.0', id, method: 'tools/list', params: body.meta ? { _meta: metaToJson(body.meta) } : {} };
    case 'server/discover':
      return { jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: metaToJson(body.meta) } };
    case 'resume':
      return null;
  }
}

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/** The 2026-07-28 `_meta` of a real request, as the model's `meta` (absent on a 2025-11-25 request). */
function metaFromJson(json: unknown): { meta?: RequestMeta } {
  const meta = (json ?? {}) as Json;
  if (meta[META_VERSION] !== '2026-07-28') return {};
  return { meta: { protocolVersion: '2026-07-28', clientCapabilities: clientCapabilitiesFromJson(meta[META_CAPABILITIES]) } };
}

/** The 2026-07-28 revision's per-request `_meta` entries. */
function metaToJson(meta: RequestMeta): Json {
  return {
    [META_VERSION]: meta.protocolVersion,
    [META_CAPABILITIES]: capabilitiesToJson(meta.clientCapabilities),
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  };
}

export interface ParsedRequest {
  /** The JSON-RPC id, when the message is a request. */
  id: string | number | null;
  body: RequestBody | null;
  /** The JSON-RPC method (or `GET`), for what the model has no body for. */
  method: string;
}

/** A real request as the model server reads it. `body` is null for what the model does not know. */
export function requestFromJson(httpMethod: string, text: string): ParsedRequest | { invalid: string } {
  if (httpMethod === 'GET') return { id: null, body: { rpc: 'resume' }, method: 'GET' };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { invalid: 'Parse error: Invalid JSON' };
  }
  const parsed = JSONRPCMessageSchema.safeParse(raw);
  if (!parsed.success) return { invalid: 'Parse error: Invalid JSON-RPC message' };
  const m = raw as Json;
  const id = 'id' in m ? (m.id as string | number) : null;
  const method = String(m.method ?? '');
  switch (method) {
    case 'initialize': {
      if (!InitializeRequestSchema.safeParse(raw).success) return { invalid: 'Invalid Request: malformed initialize' };
      return {
        id,
        method,
        body: { rpc: 'initialize', capabilities: clientCapabilitiesFromJson(m.params?.capabilities), transport: 'streamable-http' },
      };
    }
    case 'notifications/initialized':
      return { id, method, body: { rpc: 'notifications/initialized' } };
    case 'tools/call': {
      const meta = (m.params?._meta ?? {}) as Json;
      const callId = typeof meta[META_CALL] === 'number' ? (meta[META_CALL] as number) : -1;
      const token = meta.progressToken === undefined ? null : String(meta.progressToken);
      const tool = m.params?.name === 'probe' || m.params?.name === 'lookup' ? m.params.name : 'work';
      return { id, method, body: { rpc: 'tools/call', callId, tool, progressToken: token, ...metaFromJson(meta) } };
    }
    case 'tools/list':
      return { id, method, body: { rpc: 'tools/list', ...metaFromJson(m.params?._meta) } };
    case 'server/discover': {
      const meta = metaFromJson(m.params?._meta);
      return meta.meta ? { id, method, body: { rpc: 'server/discover', meta: meta.meta } } : { id, method, body: null };
    }
    default:
      return { id, method, body: null };
  }
}

/** A model result as the JSON-RPC `result` of the request it answers. */
export function resultToJson(result: RpcResult): Json {
  if ('supportedVersions' in result) {
    const r = result as DiscoverResult;
    return {
      supportedVersions: r.supportedVersions,
      capabilities: capabilitiesToJson(r.capabilities),
      serverInfo: { name: 'mcp-faultsim model server', version: '0.1.0' },
    };
  }
  if ('capabilities' in result) {
    const r = result as InitializeResult;
    return {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: capabilitiesToJson(r.capabilities),
      serverInfo: { name: 'mcp-faultsim model server', version: '0.1.0' },
      _meta: { [META_TRANSPORT]: r.transport },
    };
  }
  if ('tools' in result) {
    // A call with progress reaches the model server as the `progress` tool (FAULTSIM_TOOLS): listed too,
    // or a client that calls only listed tools (LangChain's, Mastra's) cannot make one.
    const names = [...new Set([...(result as ListResult).tools, FAULTSIM_TOOLS.progress.name])];
    return { tools: names.map((name) => ({ name, inputSchema: { type: 'object' } })) };
  }
  if ('content' in result) return { ...(result as CallResult) };
  return {};
}

/** A model message as JSON-RPC. `modern`: it answers a 2026-07-28 request. That revision's schema
 *  requires `resultType` on every result (SDK v2 rejects one without it), and `ttlMs` + `cacheScope`
 *  on the cacheable ones, tools/list and server/discover among them (the Python SDK rejects a list
 *  without them): 0 ms, private — never fresh, so a client asks again rather than answer from a cache. */
export function messageToJson(message: JsonRpcMessage, id: string | number | null, modern = false): Json {
  if (!('result' in message)) return { jsonrpc: '2.0', id, error: message.error };
  const result = resultToJson(message.result);
  if (!modern) return { jsonrpc: '2.0', id, result };
  const cacheable = 'tools' in message.result || 'supportedVersions' in message.result;
  return { jsonrpc: '2.0', id, result: { ...result, resultType: 'complete', ...(cacheable ? { ttlMs: 0, cacheScope: 'private' } : {}) } };
}

function textContent(content: unknown): TextContent[] {
  if (!Array.isArray(content)) return [];
  return content.map((c: Json) => ({ type: 'text', text: typeof c?.text === 'string' ? c.text : JSON.stringify(c) }));
}

/**
 * A real JSON-RPC response as the model client reads it, given the rpc it answers. Null when the
 * message is not a response (a notification, a request) or fails the SDK's schema.
 */
export function messageFromJson(raw: unknown, rpc: RequestBody['rpc']): JsonRpcMessage | null {
  if (!JSONRPCMessageSchema.safeParse(raw).success) return null;
  const m = raw as Json;
  if (m.error && typeof m.error === 'object') return { error: { code: Number(m.error.code), message: String(m.error.message ?? '') } };
  if (!('result' in m)) return null;
  const r = (m.result ?? {}) as Json;
  if (rpc === 'initialize') {
    if (!InitializeResultSchema.safeParse(r).success) return null;
    const transport = (r._meta?.[META_TRANSPORT] ?? 'streamable-http') as Transport;
    return { result: { capabilities: capabilitiesFromJson(r.capabilities), transport } };
  }
  if (rpc === 'tools/list') {
    // The `progress` tool is the wire's name for a call with progress (resultToJson lists it), not a tool of the model.
    const names = Array.isArray(r.tools) ? r.tools.map((t: Json) => String(t?.name)) : [];
    return { result: { tools: names.filter((n: string) => n !== FAULTSIM_TOOLS.progress.name) } };
  }
  if (rpc === 'server/discover') {
    if (!Array.isArray(r.supportedVersions)) return null;
    return { result: { supportedVersions: r.supportedVersions.map(String), capabilities: capabilitiesFromJson(r.capabilities) } };
  }
  const call: CallResult = { content: textContent(r.content) };
  if (r.progressToken !== undefined)
    Object.assign(call, { progressToken: String(r.progressToken), progress: Array.isArray(r.progress) ? r.progress : [] });
  return { result: call };
}

/** `notifications/progress` (the spec's encoding) as the model's progress frame data. */
export function progressFromJson(raw: unknown): { progressToken: string; progress: number } | null {
  const m = raw as Json;
  if (m?.method !== 'notifications/progress') return null;
  return { progressToken: String(m.params?.progressToken), progress: Number(m.params?.progress) };
}

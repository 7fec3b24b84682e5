// `mcp-faultsim/vitest`: your own MCP server or client under the fault plans, from your own test
// suite. The helpers return promises and throw plain Errors, so they work in any runner; vitest is
// the one the README shows.
export {
  expectNoSilentFailures,
  expectClientNoSilentFailures,
  checkHandler,
  checkClient,
  SILENT_FAILURE_PROPERTIES,
  type WireTestOptions,
  type HandlerTestOptions,
  type ClientTestOptions,
} from './wire/handler-check.ts';
export { HANDLER_URL, type FetchHandler, type HandlerTarget, type HandlerServerOptions, type ToolChoice } from './wire/handler-server.ts';
export type { ClientFactory, McpClientLike } from './wire/sdk-client.ts';
export type { WireCheckResult } from './wire/check.ts';
export type { ToolSpec } from './wire/json-rpc.ts';

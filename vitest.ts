// `mcp-faultsim/vitest`: your own MCP server or client under the fault plans, from your own test
// suite. The helpers return promises and throw plain Errors, so they work in any runner; vitest is
// the one the README shows.
import { renderHandlerCheck } from './reports/handler-check-text.ts';
import type { WireCheckResult } from './sim/wire/check.ts';
import { checkClient, checkHandler, type ClientTestOptions, type HandlerTestOptions } from './sim/wire/handler-check.ts';
import type { HandlerTarget } from './sim/wire/process/handler-server.ts';
import type { ClientFactory } from './sim/wire/peers/sdk-client.ts';

export {
  checkHandler,
  checkClient,
  SILENT_FAILURE_PROPERTIES,
  type WireTestOptions,
  type HandlerTestOptions,
  type ClientTestOptions,
} from './sim/wire/handler-check.ts';
export {
  HANDLER_URL,
  type FetchHandler,
  type HandlerTarget,
  type HandlerServerOptions,
  type ToolChoice,
} from './sim/wire/process/handler-server.ts';
export type { ClientFactory, McpClientLike } from './sim/wire/peers/sdk-client.ts';
export type { WireCheckResult } from './sim/wire/check.ts';
export type { ToolSpec } from './sim/wire/protocol/tool-maps.ts';

// The throwing forms live here, the entry layer: the wire tier returns data, and only an entry
// (this, or the CLI) turns a result into a report.
function assertClean(r: WireCheckResult, call: string): WireCheckResult {
  if (r.results.some((p) => p.verdict !== 'holds')) throw new Error(renderHandlerCheck(r, call));
  return r;
}

/** Throws (with the shrunk counterexample as the message) unless every property holds and was reached. */
export async function expectNoSilentFailures(handler: HandlerTarget, options: HandlerTestOptions): Promise<WireCheckResult> {
  return assertClean(await checkHandler(handler, options), 'expectNoSilentFailures(handler)');
}

/** The same for your client. */
export async function expectClientNoSilentFailures(client: ClientFactory, options: ClientTestOptions = {}): Promise<WireCheckResult> {
  return assertClean(await checkClient(client, options), 'expectClientNoSilentFailures(client)');
}

// Before a real server (`--serve`, `--target`) is audited: its own tools, from its `tools/list` and
// what the user asked for (`--call`/`--args`/`--tools`, read by tool-options.ts), as
// audit/server/tool-choice.ts chooses them; then one fault-free run of the audit's own client with them. A server that cannot be listed (401: authentication missing or wrong) or whose
// fault-free run fails is one line and exit 2 here — never a scorecard of `stuck` rows.
import { chooseTools, ToolChoiceError, type ToolChoice, type ToolRequest } from '../audit/server/tool-choice.ts';
import { MODERN_CLIENT, SPEC_CLIENT } from '../audit/scenarios.ts';
import { combination, type Revision } from '../../models/policies.ts';
import { discoverTools } from '../wire/process/discover-tools.ts';
import type { WireServerSpec } from '../wire/setup.ts';
import { runWire } from '../wire/world.ts';
import { UsageError } from './errors.ts';
import { requireWorkingReference } from './reference-check.ts';

/** The server with its own tools chosen (its tools/list in `revision`); no run. */
export async function serverTools(
  server: Extract<WireServerSpec, { kind: 'loopback' }>,
  request: ToolRequest,
  revision: Revision,
): Promise<{ server: WireServerSpec; choice: ToolChoice }> {
  const { endpoint } = server;
  const discovered = await discoverTools(endpoint.url, endpoint.upstream, revision);
  let choice: ToolChoice;
  try {
    choice = chooseTools(discovered, request);
  } catch (e) {
    if (e instanceof ToolChoiceError) throw new UsageError(e.message);
    throw e;
  }
  return { server: { kind: 'loopback', endpoint: { ...endpoint, tools: choice.tools } }, choice };
}

export async function realServerTools(
  server: Extract<WireServerSpec, { kind: 'loopback' }>,
  request: ToolRequest,
  revisions: readonly Revision[],
): Promise<{ server: WireServerSpec; choice: ToolChoice }> {
  const legacy = revisions.includes('2025-11-25');
  const { server: chosen, choice } = await serverTools(server, request, legacy ? '2025-11-25' : '2026-07-28');
  const policy = combination({ client: legacy ? SPEC_CLIENT : MODERN_CLIENT }).client;
  await requireWorkingReference('audit', (workload) =>
    runWire({ client: { kind: 'model', policy }, server: chosen }, { workload, plan: [] }),
  );
  return { server: chosen, choice };
}

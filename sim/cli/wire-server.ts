// The real server side of a wire run as the command line names it, shared by `check --wire`
// (cli/wire-check.ts) and `audit` (cli/commands/audit.ts): `--target URL` (a server already
// running; off loopback only with the audit's --allow-remote) or `--serve CMD` (started here, stopped at the end), with the tool set it
// offers (`--tools`); how a command line is quoted back to the user; and the teardown both share.
import { EVERYTHING_TOOLS, FAULTSIM_TOOLS, type ToolMap } from '../wire/protocol/json-rpc.ts';
import { closeLoopback } from '../wire/process/loopback-fetch.ts';
import { ServedProcess, servedEndpoint, targetEndpoint } from '../wire/process/loopback.ts';
import type { WireServerSpec } from '../wire/setup.ts';
import { LOCAL_UPSTREAM, type Upstream } from '../wire/process/upstream.ts';
import type { Watchdog } from '../wire/process/watchdog.ts';
import { stringOption, type Parsed } from './args.ts';
import { UsageError } from './errors.ts';

/** A word of a command line, quoted for a POSIX shell where it needs it. */
export const quote = (t: string) => (/^[\w=,+.:/-]+$/.test(t) ? t : `'${t.replaceAll("'", "'\\''")}'`);

/** `--tools`: the tools a real server offers. */
export function toolsOption(args: Parsed): ToolMap {
  const t = stringOption(args, 'tools') ?? 'everything';
  if (t === 'everything') return EVERYTHING_TOOLS;
  if (t === 'faultsim') return FAULTSIM_TOOLS;
  throw new UsageError(`unknown --tools '${t}' (valid: everything, faultsim)`);
}

/** The server `--target` or `--serve` names, or null when neither is given. A process `--serve`
 *  starts is handed to `started` at once, so that the caller's teardown stops it even when what
 *  follows fails. */
export async function loopbackServer(
  args: Parsed,
  tools: ToolMap,
  watchdog: Watchdog,
  started: (served: ServedProcess) => void,
  upstream: Upstream = LOCAL_UPSTREAM,
): Promise<WireServerSpec | null> {
  const target = stringOption(args, 'target');
  if (target !== undefined) return { kind: 'loopback', endpoint: await targetEndpoint(target, tools, watchdog, upstream) };
  const serve = stringOption(args, 'serve');
  if (serve === undefined) return null;
  const served = await ServedProcess.start(serve, { path: stringOption(args, 'serve-path') ?? '/mcp' });
  started(served);
  return { kind: 'loopback', endpoint: servedEndpoint(served, tools, watchdog, upstream) };
}

/** At the end of a wire command, however it ends: no watchdog left armed, the served process
 *  stopped, no loopback connection left open. */
export async function endWireRun(watchdog: Watchdog, served: ServedProcess | null): Promise<void> {
  watchdog.disarm();
  await served?.stop();
  await closeLoopback();
}

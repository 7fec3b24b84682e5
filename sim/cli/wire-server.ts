// The real server side of a wire run as the command line names it, shared by `audit`, `check --wire`
// and `proxy`: the one definition of `--target URL` (a server already running; off loopback only with
// --allow-remote), `--serve CMD` (started here, stopped at the end), `--serve-path` and `--watchdog`,
// and the server they name; how a command line is quoted back to the user; and the teardown.
import type { ToolMap } from '../wire/protocol/tool-maps.ts';
import { closeLoopback } from '../wire/process/loopback-fetch.ts';
import { ServedProcess, servedEndpoint, targetEndpoint } from '../wire/process/loopback.ts';
import type { WireServerSpec } from '../wire/setup.ts';
import { LOCAL_UPSTREAM, type Upstream } from '../wire/process/upstream.ts';
import { DEFAULT_WATCHDOG_MS, type Watchdog } from '../wire/process/watchdog.ts';
import { intOption, stringOption, type OptionSpec, type Parsed } from './args.ts';

/** The default of --boot-timeout, in ms. */
const DEFAULT_BOOT_MS = 20_000;

/** Where a real server is: one of these or the command's own `--server` (each declares `oneOf: 'server'`). */
export const REAL_SERVER_OPTIONS: Record<string, OptionSpec> = {
  target: {
    value: true,
    arg: 'URL',
    help: 'a running MCP server on loopback, http://127.0.0.1:PORT/mcp or https:// (TLS verified)',
    oneOf: 'server',
    nonEmpty: 'a URL',
  },
  serve: {
    value: true,
    arg: 'CMD',
    help: 'start this server command on a free loopback port ({port} and $PORT); restarted for server-restart',
    oneOf: 'server',
    nonEmpty: 'a command',
  },
  'serve-path': { value: true, arg: 'PATH', help: "the --serve server's MCP endpoint path (default /mcp)", needs: ['serve'] },
  'boot-timeout': {
    value: true,
    arg: 'SECONDS',
    help: `how long the --serve server may take to answer HTTP, at its start and after a restart (default ${DEFAULT_BOOT_MS / 1000})`,
    needs: ['serve'],
  },
};

/** The wall-clock limit of a run against real code: a real server, or a client process (`--client-cmd`). */
export const WATCHDOG_OPTION: OptionSpec = {
  value: true,
  arg: 'SECONDS',
  help: `the wall-clock limit of each run against real code (default ${DEFAULT_WATCHDOG_MS / 1000}); past it the run ends with outcome watchdog, exit 4`,
  needs: ['target', 'serve', 'client-cmd'],
};

/** `--watchdog`, in ms. */
export function watchdogMs(args: Parsed): number {
  return intOption(args, 'watchdog', DEFAULT_WATCHDOG_MS / 1000, { min: 1, max: 86_400 }) * 1000;
}

/** `--boot-timeout`, in ms. */
export function bootTimeoutMs(args: Parsed): number {
  return intOption(args, 'boot-timeout', DEFAULT_BOOT_MS / 1000, { min: 1, max: 3600 }) * 1000;
}

/** A word of a command line, quoted for a POSIX shell where it needs it. */
export const quote = (t: string) => (/^[\w=,+.:/-]+$/.test(t) ? t : `'${t.replaceAll("'", "'\\''")}'`);

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
  const served = await ServedProcess.start(serve, {
    path: stringOption(args, 'serve-path') ?? '/mcp',
    startTimeoutMs: bootTimeoutMs(args),
  });
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

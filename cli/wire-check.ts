// `mcp-faultsim check --wire`: the same properties over the same fault plans, on real HTTP through
// msw. A side is the model (its knob list, as in `check`) or real code: `--client sdk|sdk2`,
// `--server sdk-sse|sdk-json|sdk2-sse|sdk2-json` (the v2 presets take `,protocol=…`),
// `--target http://127.0.0.1:PORT/mcp`, `--serve "<cmd with {port}>"`.
import type { FaultName } from '../models/faults.ts';
import { combination } from '../models/policies.ts';
import { NO_EXTENSIONS, withExtensions } from '../models/registry.ts';
import type { Registry } from '../plugins/registry.ts';
import type { Property } from '../properties/properties.ts';
import { renderWireCheck } from '../reports/wire-check-text.ts';
import { DEFAULT_RUNS, DEFAULT_SEED } from '../search/random/check.ts';
import { LoopbackError, type ServedProcess } from '../wire/loopback.ts';
import { DEFAULT_WATCHDOG_MS, Watchdog, type Aborted } from '../wire/watchdog.ts';
import { realSleep } from '../wire/virtual-time.ts';
import { SDK_SERVER_PRESETS } from '../wire/sdk-server.ts';
import { wireCheck } from '../wire/check.ts';
import { runWire } from '../wire/world.ts';
import { requireWorkingReference } from './reference-check.ts';
import {
  CLIENT_PRESETS,
  clientPreset,
  DEFAULT_SDK2_PROTOCOL,
  SDK2_CLIENT_PROTOCOLS,
  SDK2_SERVER_PRESETS,
  SDK2_SERVER_PROTOCOLS,
  serverPreset,
  WirePresetError,
  type WireClientSpec,
  type WireServerSpec,
} from '../wire/setup.ts';
import { intOption, stringOption, type OptionSpec, type Parsed } from './args.ts';
import { EXIT, UsageError } from './errors.ts';
import { parseClient, parseServer } from './knobs.ts';
import { progressBar } from './progress.ts';
import { endWireRun, loopbackServer, quote, toolsOption } from './wire-server.ts';

export const WIRE_OPTIONS: Record<string, OptionSpec> = {
  wire: {
    value: false,
    help: 'run on real HTTP through msw (the wire tier); --client/--server also take presets: sdk, sdk-sse, sdk-json, sdk2, sdk2-sse, sdk2-json',
  },
  target: { value: true, arg: 'URL', help: 'with --wire: the server is a running MCP server on loopback (http://127.0.0.1:PORT/mcp)' },
  serve: {
    value: true,
    arg: 'CMD',
    help: 'with --wire: start this server command on a free loopback port ({port} and $PORT) and restart it for server-restart',
  },
  'serve-path': { value: true, arg: 'PATH', help: 'with --serve: the MCP endpoint path (default /mcp)' },
  watchdog: {
    value: true,
    arg: 'SECONDS',
    help: `with --target/--serve/--client-cmd: the wall-clock limit of each run against the real server (default ${DEFAULT_WATCHDOG_MS / 1000}); past it the check ends with outcome watchdog, exit 4`,
  },
  'client-cmd': {
    value: true,
    arg: 'CMD',
    help: 'with --wire: the client is this command (any language), driven over JSON lines (examples/clients/README.md) through a loopback fault proxy, on the wall clock',
  },
  tools: {
    value: true,
    arg: 'SET',
    help: "with --target/--serve: the server's tools, everything (echo, trigger-long-running-operation; default) or faultsim (work, progress)",
  },
};

export const WIRE_HELP = [
  '',
  'wire tier (--wire): the same plans on real HTTP through msw, on virtual time (no test waits on a timeout).',
  `  --client sdk       ${CLIENT_PRESETS.sdk}`,
  ...Object.entries(SDK_SERVER_PRESETS).map(([name, p]) => `  --server ${name.padEnd(9)} ${p.describe}`),
  `  --client sdk2      ${CLIENT_PRESETS.sdk2}`,
  ...Object.entries(SDK2_SERVER_PRESETS).map(([name, p]) => `  --server ${name.padEnd(9)} ${p.describe}`),
  `  The v1 presets speak 2025-11-25 only. The v2 presets take a revision: sdk2,protocol=${SDK2_CLIENT_PROTOCOLS.join('|')}`,
  `  (negotiate: server/discover, falling back to initialize) and sdk2-sse,protocol=${SDK2_SERVER_PROTOCOLS.join('|')}`,
  `  (dual: a request with the 2026-07-28 _meta envelope is served sessionless, initialize opens a session); default ${DEFAULT_SDK2_PROTOCOL}.`,
  '  Either side may instead be the model (a knob list). Against --target, session-expire and server-restart',
  '  are skipped (the report says so); against --serve, session-expire is.',
  '  A real server runs on the wall clock: each run against it has a watchdog (--watchdog), the only wall clock of',
  '  a wire run. A run past it, or a --serve server that exits on its own or does not come back after a restart,',
  '  ends the check with that outcome (watchdog, server-failed) and exit status 4, never a report of success.',
  '  Every process --serve started is stopped on every exit (normal, error, SIGINT, SIGTERM, SIGHUP).',
].join('\n');

export function isWirePreset(side: 'client' | 'server', text: string | undefined): boolean {
  return text !== undefined && presetOf(side, text) !== null;
}

function presetOf(side: 'client' | 'server', text: string): WireClientSpec | WireServerSpec | null {
  try {
    return side === 'client' ? clientPreset(text) : serverPreset(text);
  } catch (e) {
    if (e instanceof WirePresetError) throw new UsageError(e.message);
    throw e;
  }
}

export async function runWireCheck(
  args: Parsed,
  out: NodeJS.WritableStream,
  common: { faults: FaultName[]; properties: readonly Property[]; registry?: Registry },
): Promise<number> {
  const ext = common.registry?.extensions ?? NO_EXTENSIONS;
  const wire = ext === NO_EXTENSIONS ? {} : { extensions: ext };
  const clientText = stringOption(args, 'client') ?? '';
  const serverText = stringOption(args, 'server');
  const target = stringOption(args, 'target');
  const serve = stringOption(args, 'serve');
  if ([serverText, target, serve].filter((x) => x !== undefined).length > 1)
    throw new UsageError('check --wire: give one of --server, --target, --serve');
  if (stringOption(args, 'serve-path') !== undefined && serve === undefined) throw new UsageError('--serve-path needs --serve');
  if (stringOption(args, 'tools') !== undefined && target === undefined && serve === undefined)
    throw new UsageError('--tools needs --target or --serve');
  const watchdog = new Watchdog(intOption(args, 'watchdog', DEFAULT_WATCHDOG_MS / 1000, { min: 1, max: 86_400 }) * 1000);
  const clientCmd = stringOption(args, 'client-cmd');
  if (clientCmd !== undefined && stringOption(args, 'client') !== undefined)
    throw new UsageError('check --wire: give --client or --client-cmd, not both');
  if (clientCmd !== undefined && clientCmd.trim() === '') throw new UsageError('--client-cmd needs a command');
  const client: WireClientSpec =
    clientCmd !== undefined
      ? { kind: 'cmd', command: clientCmd, watchdog }
      : ((presetOf('client', clientText) as WireClientSpec | null) ?? {
          kind: 'model',
          policy: withExtensions(ext, () => combination({ client: parseClient(clientText) }).client),
        });
  const tools = toolsOption(args);
  const seed = intOption(args, 'seed', DEFAULT_SEED, { min: -(2 ** 31), max: 2 ** 31 - 1 });
  const runs = intOption(args, 'runs', DEFAULT_RUNS, { min: 1, max: 1_000_000 });

  if (args.options.watchdog !== undefined && target === undefined && serve === undefined && args.options['client-cmd'] === undefined) {
    throw new UsageError('--watchdog needs --target, --serve or --client-cmd');
  }

  let served: ServedProcess | null = null;
  try {
    let server = await loopbackServer(args, tools, watchdog, (p) => (served = p));
    if (server === null && serverText !== undefined && isWirePreset('server', serverText))
      server = presetOf('server', serverText) as WireServerSpec;
    server ??= { kind: 'model', policy: withExtensions(ext, () => combination({ server: parseServer(serverText ?? '') }).server) };

    const progress = progressBar(!args.options.quiet && !args.options.json);
    const onProgress = (d: number, t: number) => progress.update(d, t, 'wire runs');
    // The fault-free reference must work first; it runs under the same watchdog as every run.
    const checked = requireWorkingReference('check --wire', (workload) => runWire({ client, server }, { workload, plan: [] }, wire)).then(
      () => wireCheck({ client, server }, { faults: common.faults, properties: common.properties, seed, runs, onProgress, wire }),
    );
    // A run stuck on a real server never settles `checked`: the watchdog (or the served process's
    // failure) ends the command instead, with its own outcome.
    const ended = await Promise.race([checked.then((result) => ({ result })), watchdog.aborted.then((aborted) => ({ aborted }))]);
    progress.done();
    const sides = wireSideArgs(args);
    if ('aborted' in ended) {
      checked.catch(() => {});
      // A client process's run stops once the watchdog has fired (proxy-run.ts): let it end its process group first.
      if (clientCmd !== undefined) await Promise.race([checked.then(nothing, nothing), realSleep(3000)]);
      const report = { wire: sides, seed, runs, ...ended.aborted };
      out.write(args.options.json ? `${JSON.stringify(report, null, 2)}\n` : renderAborted(ended.aborted, sides));
      return EXIT.incomplete;
    }
    const result = ended.result;
    out.write(args.options.json ? `${JSON.stringify(result, null, 2)}\n` : renderWireCheck(result, sides));
    return result.results.some((r) => r.verdict === 'violated') ? EXIT.violated : EXIT.ok;
  } catch (e) {
    if (e instanceof LoopbackError) throw new UsageError(e.message);
    throw e;
  } finally {
    await endWireRun(watchdog, served);
  }
}

const nothing = () => {};

/** The flags that name each side as given, for reproduce lines. A loopback server keeps its `--serve-path`
 *  and `--tools`: without `--tools faultsim` a reproduced run would call tools the server lacks. */
export function wireSideArgs(args: Parsed): { client: string; server: string } {
  const clientCmd = stringOption(args, 'client-cmd');
  const target = stringOption(args, 'target');
  const serve = stringOption(args, 'serve');
  const servePath = stringOption(args, 'serve-path');
  const tools = stringOption(args, 'tools');
  const flags = [
    ...(servePath !== undefined ? [`--serve-path ${quote(servePath)}`] : []),
    ...(tools !== undefined ? [`--tools ${quote(tools)}`] : []),
  ];
  const loopback = (flag: string, value: string) => [flag, quote(value), ...flags].join(' ');
  return {
    client: clientCmd !== undefined ? `--client-cmd ${quote(clientCmd)}` : `--client ${quote(stringOption(args, 'client') ?? '')}`,
    server:
      target !== undefined
        ? loopback('--target', target)
        : serve !== undefined
          ? loopback('--serve', serve)
          : `--server ${quote(stringOption(args, 'server') ?? '')}`,
  };
}

function renderAborted(a: Aborted, sides: { client: string; server: string }): string {
  return [
    `client  ${sides.client}`,
    `server  ${sides.server}`,
    `outcome ${a.outcome}: ${a.why}`,
    ...(a.open.length ? [`still open: ${a.open.join(', ')}`] : []),
    'no verdict: the check did not finish (exit 4)',
    '',
  ].join('\n');
}

// `mcp-faultsim check --wire`: the same properties over the same fault plans, on real HTTP through
// msw. A side is the model (its knob list, as in `check`) or real code: `--client sdk`,
// `--server sdk-sse|sdk-json`, `--target http://127.0.0.1:PORT/mcp`, `--serve "<cmd with {port}>"`.
import type { FaultName } from '../models/faults.ts';
import { combination } from '../models/policies.ts';
import type { Property } from '../properties/properties.ts';
import { renderWireCheck } from '../reports/wire-check-text.ts';
import { DEFAULT_RUNS, DEFAULT_SEED } from '../search/random/check.ts';
import { EVERYTHING_TOOLS, FAULTSIM_TOOLS, type ToolMap } from '../wire/json-rpc.ts';
import { LoopbackError, ServedProcess, targetEndpoint } from '../wire/loopback.ts';
import { SDK_SERVER_PRESETS, type SdkServerPreset } from '../wire/sdk-server.ts';
import { wireCheck } from '../wire/check.ts';
import { runWire } from '../wire/world.ts';
import { requireWorkingReference } from './reference-check.ts';
import { CLIENT_PRESETS, type WireClientSpec, type WireServerSpec } from '../wire/setup.ts';
import { intOption, stringOption, type OptionSpec, type Parsed } from './args.ts';
import { EXIT, UsageError } from './errors.ts';
import { parseClient, parseServer } from './knobs.ts';
import { progressBar } from './progress.ts';

export const WIRE_OPTIONS: Record<string, OptionSpec> = {
  wire: { value: false, help: 'run on real HTTP through msw (the wire tier); --client/--server also take presets: sdk, sdk-sse, sdk-json' },
  target: { value: true, arg: 'URL', help: 'with --wire: the server is a running MCP server on loopback (http://127.0.0.1:PORT/mcp)' },
  serve: { value: true, arg: 'CMD', help: "with --wire: start this server command on a free loopback port ({port} and $PORT) and restart it for server-restart" },
  'serve-path': { value: true, arg: 'PATH', help: 'with --serve: the MCP endpoint path (default /mcp)' },
  tools: { value: true, arg: 'SET', help: "with --target/--serve: the server's tools, everything (echo, trigger-long-running-operation; default) or faultsim (work, progress)" },
};

export const WIRE_HELP = [
  '',
  'wire tier (--wire): the same plans on real HTTP through msw, on virtual time (no test waits on a timeout).',
  `  --client sdk       ${CLIENT_PRESETS.sdk}`,
  ...Object.entries(SDK_SERVER_PRESETS).map(([name, p]) => `  --server ${name.padEnd(9)} ${p.describe}`),
  '  Either side may instead be the model (a knob list). Against --target, session-expire and server-restart',
  '  are skipped (the report says so); against --serve, session-expire is.',
].join('\n');

export function isWirePreset(side: 'client' | 'server', text: string | undefined): boolean {
  return text !== undefined && (side === 'client' ? text in CLIENT_PRESETS : text in SDK_SERVER_PRESETS);
}

function toolsOption(args: Parsed): ToolMap {
  const t = stringOption(args, 'tools') ?? 'everything';
  if (t === 'everything') return EVERYTHING_TOOLS;
  if (t === 'faultsim') return FAULTSIM_TOOLS;
  throw new UsageError(`unknown --tools '${t}' (valid: everything, faultsim)`);
}

export async function runWireCheck(args: Parsed, out: NodeJS.WritableStream, common: { faults: FaultName[]; properties: readonly Property[] }): Promise<number> {
  const clientText = stringOption(args, 'client') ?? '';
  const serverText = stringOption(args, 'server');
  const target = stringOption(args, 'target');
  const serve = stringOption(args, 'serve');
  if ([serverText, target, serve].filter((x) => x !== undefined).length > 1) throw new UsageError('check --wire: give one of --server, --target, --serve');
  if (stringOption(args, 'serve-path') !== undefined && serve === undefined) throw new UsageError('--serve-path needs --serve');
  if (stringOption(args, 'tools') !== undefined && target === undefined && serve === undefined) throw new UsageError('--tools needs --target or --serve');
  const client: WireClientSpec = isWirePreset('client', clientText) ? { kind: 'sdk' } : { kind: 'model', policy: combination({ client: parseClient(clientText) }).client };
  const tools = toolsOption(args);
  const seed = intOption(args, 'seed', DEFAULT_SEED, { min: -(2 ** 31), max: 2 ** 31 - 1 });
  const runs = intOption(args, 'runs', DEFAULT_RUNS, { min: 1, max: 1_000_000 });

  let served: ServedProcess | null = null;
  try {
    let server: WireServerSpec;
    if (target !== undefined) server = { kind: 'loopback', endpoint: await targetEndpoint(target, tools) };
    else if (serve !== undefined) {
      served = await ServedProcess.start(serve, stringOption(args, 'serve-path') ?? '/mcp');
      server = { kind: 'loopback', endpoint: served.endpoint(tools) };
    } else if (isWirePreset('server', serverText)) server = { kind: 'sdk', preset: serverText as SdkServerPreset };
    else server = { kind: 'model', policy: combination({ server: parseServer(serverText ?? '') }).server };

    await requireWorkingReference('check --wire', (workload) => runWire({ client, server }, { workload, plan: [] }));
    const progress = progressBar(!args.options.quiet && !args.options.json);
    const result = await wireCheck({ client, server }, { faults: common.faults, properties: common.properties, seed, runs, onProgress: (d, t) => progress.update(d, t, 'wire runs') });
    progress.done();
    const quote = (t: string) => (/^[\w=,+.:\/-]+$/.test(t) ? t : `'${t.replaceAll("'", "'\\''")}'`);
    const sides = {
      client: `--client ${quote(clientText)}`,
      server: target !== undefined ? `--target ${quote(target)}` : serve !== undefined ? `--serve ${quote(serve)}` : `--server ${quote(serverText ?? '')}`,
    };
    out.write(args.options.json ? `${JSON.stringify(result, null, 2)}\n` : renderWireCheck(result, sides));
    return result.results.some((r) => r.verdict === 'violated') ? EXIT.violated : EXIT.ok;
  } catch (e) {
    if (e instanceof LoopbackError) throw new UsageError(e.message);
    throw e;
  } finally {
    await served?.stop();
  }
}

// `mcp-faultsim check --wire`: the same properties over the same fault plans, on real HTTP through
// msw. A side is the model (its knob list, as in `check`) or real code: `--client sdk|sdk2`,
// `--server sdk-sse|sdk-json|sdk2-sse|sdk2-json` (the v2 presets take `,protocol=…`),
// `--target http://127.0.0.1:PORT/mcp`, `--serve "<cmd with {port}>"`.
import type { FaultName } from '../../models/faults.ts';
import { combination, type Revision } from '../../models/policies.ts';
import { NO_ADDITIONS } from '../../models/additions.ts';
import type { Registry } from '../plugins/loaded.ts';
import type { Property } from '../../properties/properties.ts';
import { renderWireCheck } from '../../reports/wire-check-text.ts';
import { DEFAULT_RUNS, DEFAULT_SEED } from '../search/random/check.ts';
import { LoopbackError, type ServedProcess } from '../wire/process/loopback.ts';
import { Watchdog, type Aborted } from '../wire/process/watchdog.ts';
import { withinRealMs } from '../wire/protocol/real-timers.ts';
import { wireCheck } from '../wire/check.ts';
import { runWire } from '../wire/world.ts';
import { requireWorkingReference } from './reference-check.ts';
import { isWirePreset, presetOf, REVISIONS } from './wire-options.ts';
import type { WireClientSpec, WireServerSpec } from '../wire/setup.ts';
import { intOption, stringOption, type Parsed } from './args.ts';
import { redact } from './redact.ts';
import { EXIT, UsageError } from './errors.ts';
import { parseClient, parseServer } from './knobs.ts';
import { progressBar } from './progress.ts';
import { endWireRun, loopbackServer, quote, watchdogMs } from './wire-server.ts';
import { serverTools } from './audit-real-server.ts';
import { upstreamOptions } from './upstream-options.ts';
import { presetTools, toolRequest } from './tool-options.ts';

/** The revision a real server's tools are listed in: --revision (as the audit's lines give it), else the client's. */
function revisionOf(args: Parsed, client: WireClientSpec): Revision {
  const given = stringOption(args, 'revision');
  if (given !== undefined && !(REVISIONS as readonly string[]).includes(given))
    throw new UsageError(`unknown --revision '${given}' (valid: ${REVISIONS.join(', ')})`);
  const protocol = client.kind === 'model' ? client.policy.protocol : client.kind === 'sdk2' ? client.protocol : '2025-11-25';
  if (given === '2026-07-28' || (given !== '2025-11-25' && protocol === '2026-07-28')) return '2026-07-28';
  return '2025-11-25';
}

export async function runWireCheck(
  args: Parsed,
  out: NodeJS.WritableStream,
  common: { faults: FaultName[]; properties: readonly Property[]; registry?: Registry },
): Promise<number> {
  const additions = common.registry?.additions ?? NO_ADDITIONS;
  const wire = additions === NO_ADDITIONS ? {} : { additions };
  // The rules between these options are declared in wire-options.ts and checked as they are parsed.
  const clientText = stringOption(args, 'client') ?? '';
  const serverText = stringOption(args, 'server');
  const watchdog = new Watchdog(watchdogMs(args));
  const clientCmd = stringOption(args, 'client-cmd');
  const client: WireClientSpec =
    clientCmd !== undefined
      ? { kind: 'cmd', command: clientCmd, watchdog }
      : ((presetOf('client', clientText) as WireClientSpec | null) ?? {
          kind: 'model',
          policy: combination({ client: parseClient(clientText, additions) }, additions).client,
        });
  const tools = toolRequest(args);
  const reach = upstreamOptions(args);
  const seed = intOption(args, 'seed', DEFAULT_SEED, { min: -(2 ** 31), max: 2 ** 31 - 1 });
  const runs = intOption(args, 'runs', DEFAULT_RUNS, { min: 1, max: 1_000_000 });

  let served: ServedProcess | null = null;
  // Header values given by --header/--header-env never appear in what the command prints.
  const hide = (text: string) => redact(text, reach.secrets);
  try {
    let server = await loopbackServer(args, presetTools(tools), watchdog, (p) => (served = p), reach.upstream);
    // A real server's own tools (--call), as the audit chooses them.
    if (server?.kind === 'loopback' && tools.calls.length > 0) server = (await serverTools(server, tools, revisionOf(args, client))).server;
    if (server === null && serverText !== undefined && isWirePreset('server', serverText))
      server = presetOf('server', serverText) as WireServerSpec;
    server ??= { kind: 'model', policy: combination({ server: parseServer(serverText ?? '', additions) }, additions).server };

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
      if (clientCmd !== undefined) await withinRealMs(checked.then(nothing, nothing), 3000, undefined);
      const report = { wire: sides, seed, runs, ...ended.aborted };
      out.write(hide(args.options.json ? `${JSON.stringify(report, null, 2)}\n` : renderAborted(ended.aborted, sides)));
      return EXIT.incomplete;
    }
    const result = ended.result;
    out.write(hide(args.options.json ? `${JSON.stringify(result, null, 2)}\n` : renderWireCheck(result, sides)));
    return result.results.some((r) => r.verdict === 'violated') ? EXIT.violated : EXIT.ok;
  } catch (e) {
    // A server's answer quoted in a message may echo a credential back: never printed.
    if (e instanceof LoopbackError || e instanceof UsageError) throw new UsageError(hide(e.message));
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

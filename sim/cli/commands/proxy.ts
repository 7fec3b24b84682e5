// `mcp-faultsim proxy`: the loopback fault proxy (wire/net/http-proxy.ts) standing alone, for clients the
// tool cannot drive (the Inspector, an agent): it applies a saved plan to whatever connects, in front
// of --target, --serve or a server in-process (the model or an SDK preset, --server), and prints the
// history one line per entry as it happens. Request n is the n-th request the proxy carries, from
// any client. It runs on the wall clock (wire/protocol/wall-time.ts) until SIGINT or SIGTERM.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { describePlan, sortPlan, type FaultPlan } from '../../core/plan.ts';
import { plannedFaultSchema } from '../../core/schemas.ts';
import { BadCounterexample, COUNTEREXAMPLE_FORMAT } from '../../corpus/counterexample-file.ts';
import { parseCounterexample } from '../../corpus/counterexample-parse.ts';
import { faultVocabulary } from '../../../models/faults.ts';
import { combination } from '../../../models/policies.ts';
import { describeEntry, stepLine } from '../../../reports/history-text.ts';
import { FaultNetwork } from '../../wire/net/fault-network.ts';
import { HttpFaultProxy } from '../../wire/net/http-proxy.ts';
import { EVERYTHING_TOOLS } from '../../wire/protocol/tool-maps.ts';
import { closeLoopback } from '../../wire/process/loopback-fetch.ts';
import { LoopbackError, ServedProcess, servedEndpoint, targetEndpoint } from '../../wire/process/loopback.ts';
import { Recorder } from '../../wire/protocol/recorder.ts';
import { serverPreset, WirePresetError, type WireServerSpec } from '../../wire/setup.ts';
import { WallTime } from '../../wire/protocol/wall-time.ts';
import { serverFor } from '../../wire/server-for.ts';
import { helpText, intOption, parseArgs, stringOption, type OptionSpec } from '../args.ts';
import { EXIT, UsageError } from '../errors.ts';
import { parseServer } from '../knobs.ts';
import { bootTimeoutMs, REAL_SERVER_OPTIONS } from '../wire-server.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

/** The server it forwards to is where the audit's is (wire-server.ts), or in-process. */
export const OPTIONS: Record<string, OptionSpec> = {
  plan: {
    value: true,
    arg: 'FILE',
    help: 'the plan: a counterexample file (compare, check --save) or a plan JSON [{"fault":…,"at":n}]',
    required: true,
  },
  ...REAL_SERVER_OPTIONS,
  server: {
    value: true,
    arg: 'K=V,…|PRESET',
    help: 'forward to a server in-process: the model (a knob list; default) or sdk-sse, sdk-json, sdk2-sse, sdk2-json',
    oneOf: 'server',
  },
  port: { value: true, arg: 'N', help: 'the loopback port to listen on (default 0: any free port; the URL is printed)' },
  latency: { value: true, arg: 'MS', help: 'one-way latency the proxy adds, real ms (default 0)' },
  help: { value: false, help: 'show this help' },
};

const HELP_TAIL = [
  '',
  'It listens on 127.0.0.1 only and forwards only to loopback; a --target that answers with a redirect is refused at start',
  '(one line, exit 2), and a later 3xx goes back to the client as it is, never followed.',
  'It runs on the wall clock: a delay: fault sleeps for real, capped at 10 s. Request n counts every request it',
  'carries from any client, from 0. session-expire reaches only an in-process server; server-restart only one',
  'it started (--serve or in-process). Stop it with Ctrl-C (SIGINT) or SIGTERM: a --serve server is ended with it.',
  '',
  "exit status: 0 stopped by a signal (with --serve: the signal's own, 130 or 143), 2 bad input (a missing or malformed plan, an unknown fault, a non-loopback URL).",
].join('\n');

function readPlan(path: string): FaultPlan {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`proxy --plan ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`proxy --plan ${path}: not JSON`);
  }
  if (json && typeof json === 'object' && (json as { format?: unknown }).format === COUNTEREXAMPLE_FORMAT) {
    try {
      return parseCounterexample(text).plan;
    } catch (e) {
      if (e instanceof BadCounterexample) throw new UsageError(`proxy --plan ${path}: ${e.message}`);
      throw e;
    }
  }
  const parsed = z.array(plannedFaultSchema).safeParse(json);
  if (!parsed.success) throw new UsageError(`proxy --plan ${path}: not a counterexample file nor a plan [{"fault":NAME,"at":n}, …]`);
  const known = new Set<string>(faultVocabulary(NO_ADDITIONS));
  for (const f of parsed.data) if (!known.has(f.fault)) throw new UsageError(`proxy --plan ${path}: unknown fault '${f.fault}'`);
  return sortPlan(parsed.data as FaultPlan);
}

/** A recorder that prints each entry as it lands (a fault entry a `before` fault inserts earlier is printed when the next lands). */
class PrintingRecorder extends Recorder {
  private printed = 0;
  constructor(
    time: WallTime,
    private readonly out: NodeJS.WritableStream,
  ) {
    super(time);
  }
  protected override landed(): void {
    for (; this.printed < this.entries.length; this.printed++) this.out.write(`${stepLine(describeEntry(this.entries[this.printed]!))}\n`);
  }
}

export async function runProxy(argv: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const args = parseArgs(argv, OPTIONS, 'proxy');
  if (args.options.help) {
    out.write(
      helpText(
        'mcp-faultsim proxy --plan FILE [--target URL | --serve CMD | --server K=V,…|PRESET] [--port N]',
        'A loopback HTTP fault proxy: apply a saved fault plan to whatever MCP client connects (the Inspector,\nan agent) and print the history as it goes, one line per entry.',
        OPTIONS,
        HELP_TAIL,
      ),
    );
    return EXIT.ok;
  }
  if (args.positionals.length > 0) throw new UsageError(`proxy takes no positional arguments (got '${args.positionals[0]}')`);
  const planPath = stringOption(args, 'plan')!;
  const target = stringOption(args, 'target');
  const serve = stringOption(args, 'serve');
  const serverText = stringOption(args, 'server');
  const port = intOption(args, 'port', 0, { min: 0, max: 65_535 });
  const latency = intOption(args, 'latency', 0, { min: 0, max: 60_000 });
  const plan = readPlan(planPath);

  const time = new WallTime();
  const recorder = new PrintingRecorder(time, out);
  let served: ServedProcess | null = null;
  let proxy: HttpFaultProxy | null = null;
  let server: ReturnType<typeof serverFor> | null = null;
  try {
    let spec: WireServerSpec;
    if (target !== undefined) spec = { kind: 'loopback', endpoint: await targetEndpoint(target, EVERYTHING_TOOLS) };
    else if (serve !== undefined) {
      served = await ServedProcess.start(serve, { path: stringOption(args, 'serve-path') ?? '/mcp', startTimeoutMs: bootTimeoutMs(args) });
      spec = { kind: 'loopback', endpoint: servedEndpoint(served, EVERYTHING_TOOLS) };
    } else {
      let preset: WireServerSpec | null;
      try {
        preset = serverPreset(serverText ?? '');
      } catch (e) {
        if (e instanceof WirePresetError) throw new UsageError(e.message);
        throw e;
      }
      spec = preset ?? { kind: 'model', policy: combination({ server: parseServer(serverText ?? '') }, NO_ADDITIONS).server };
    }
    server = serverFor({ client: { kind: 'sdk' }, server: spec }, recorder, NO_ADDITIONS);
    const network = new FaultNetwork(plan, recorder, server, { configReset: () => false }, latency, NO_ADDITIONS);
    try {
      proxy = await HttpFaultProxy.start(network, port);
    } catch (e) {
      throw new UsageError(`proxy: cannot listen on 127.0.0.1:${port} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    const path = spec.kind === 'loopback' ? new URL(spec.endpoint.url).pathname : '/mcp';
    out.write(`proxy listening on ${proxy.origin}${path}\nplan ${plan.length ? describePlan(plan) : '(no faults)'}\n`);
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    out.write(`stopped by ${signal} after ${network.carried} requests\n`);
    return EXIT.ok;
  } catch (e) {
    if (e instanceof LoopbackError) throw new UsageError(e.message);
    throw e;
  } finally {
    recorder.close();
    await proxy?.close();
    await server?.close();
    await served?.stop();
    await closeLoopback();
  }
}

export const command = { name: 'proxy', run: runProxy };

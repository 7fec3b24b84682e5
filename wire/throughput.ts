// Wire throughput, for `npm run bench`: the SDK client ↔ SDK server `tools/call` rate through the
// fault network with no faults (request counting, body inspection, history recording, SSE
// watching; latency 0), against the same client and server through a bare msw handler, measured
// in the same run, alternating rounds (and which arm goes first), median of each. Each arm runs with
// only its own handler installed, so neither pays for matching the other's URL. Wall-clock timing
// (and process CPU time, steadier on a loaded machine) is the point here: this is a benchmark, never
// a test assertion, and nothing here feeds a report outside `timing`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { HttpHandler } from 'msw';
import { FaultNetwork } from './fault-network.ts';
import { META_CALL } from './json-rpc.ts';
import { acquireMsw, releaseMsw, route } from './msw-host.ts';
import { Recorder } from './recorder.ts';
import { SdkServer } from './sdk-server.ts';
import { realTick, VirtualTime } from './virtual-time.ts';

const FAULTED_URL = 'http://faulted.throughput.test/mcp';
const BARE_URL = 'http://bare.throughput.test/mcp';
const ROUNDS = 3;

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'throughput', version: '0.1.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** The SDK client's transport passes one AbortSignal to every fetch, and each intercepted Request
 *  adds a listener to it: past ~1500 calls on one session Node warns of a leak. Both arms therefore
 *  use a fresh session every CALLS_PER_SESSION calls, connected outside the timed part. */
const CALLS_PER_SESSION = 1000;

interface Rate {
  /** Calls per wall-clock second. */
  perSecond: number;
  /** Process CPU milliseconds per call. */
  cpuMsPerCall: number;
}

/** The rate of `calls` sequential tools/calls (yielding now and then, as msw needs). */
async function rate(url: string, calls: number): Promise<Rate> {
  let elapsed = 0;
  let cpuMicros = 0;
  for (let done = 0; done < calls; ) {
    const client = await connect(url);
    const n = Math.min(CALLS_PER_SESSION, calls - done);
    const start = performance.now(); // wall-clock timing: a throughput figure, never a result
    const cpu = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      await client.callTool({ name: 'work', arguments: {}, _meta: { [META_CALL]: done + i } });
      if (i % 200 === 199) await realTick();
    }
    const used = process.cpuUsage(cpu);
    elapsed += performance.now() - start; // wall-clock timing
    cpuMicros += used.user + used.system;
    done += n;
    await client.close();
  }
  return { perSecond: calls / (elapsed / 1000), cpuMsPerCall: cpuMicros / 1000 / calls };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface WireThroughput {
  callsPerSecond: number;
  bareCallsPerSecond: number;
  /** CPU milliseconds per call, medians of the same rounds. */
  cpuMsPerCall: number;
  bareCpuMsPerCall: number;
}

export async function measureWireThroughput(opts: { calls: number }): Promise<WireThroughput> {
  const calls = Math.max(1, Math.floor(opts.calls));
  const msw = acquireMsw();
  const bareServer = new SdkServer('sdk-sse');
  const faultedServer = new SdkServer('sdk-sse');
  // No faults, no latency: the network's own work, on the real clock (nothing waits on a timer).
  const recorder = new Recorder(new VirtualTime());
  const network = new FaultNetwork([], recorder, faultedServer, { configReset: () => false }, 0);
  const handlers: Record<string, HttpHandler> = {
    [BARE_URL]: route(BARE_URL, (request) => bareServer.handle(request)),
    [FAULTED_URL]: route(FAULTED_URL, (request) => network.carry(request)),
  };
  const arm = (url: string, n: number): Promise<Rate> => {
    msw.resetHandlers();
    msw.use(handlers[url]!);
    // The recorder's history is dropped between rounds: a benchmark measures the network, not a growing array.
    recorder.entries.length = 0;
    return rate(url, n);
  };
  try {
    const warm = Math.min(50, calls);
    await arm(BARE_URL, warm);
    await arm(FAULTED_URL, warm);
    const faulted: Rate[] = [];
    const bare: Rate[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Which arm goes first alternates: what one leaves behind (garbage, warm caches) falls on each in turn.
      if (round % 2 === 0) faulted.push(await arm(FAULTED_URL, calls)), bare.push(await arm(BARE_URL, calls));
      else bare.push(await arm(BARE_URL, calls)), faulted.push(await arm(FAULTED_URL, calls));
    }
    const m = (rs: Rate[], k: keyof Rate) => median(rs.map((r) => r[k]));
    return {
      callsPerSecond: Math.round(m(faulted, 'perSecond')),
      bareCallsPerSecond: Math.round(m(bare, 'perSecond')),
      cpuMsPerCall: Math.round(m(faulted, 'cpuMsPerCall') * 1000) / 1000,
      bareCpuMsPerCall: Math.round(m(bare, 'cpuMsPerCall') * 1000) / 1000,
    };
  } finally {
    await faultedServer.close();
    await bareServer.close();
    msw.resetHandlers();
    releaseMsw();
  }
}

if (process.argv[1]?.endsWith('throughput.ts')) {
  const calls = Number(process.argv[2] ?? 2000);
  console.log(JSON.stringify({ calls, ...(await measureWireThroughput({ calls })) }));
}

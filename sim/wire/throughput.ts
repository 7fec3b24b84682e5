// Wire throughput, for `npm run bench`: the SDK client ↔ SDK server `tools/call` rate through the
// fault network with no faults (request counting, body inspection, history recording, SSE
// watching; latency 0), against the same client and server through a bare msw handler, measured
// in the same run. The arms take turns in short blocks (which goes first alternates), so a change in
// the machine's load between blocks falls on both alike; each arm's figure is its total over its
// blocks. Each arm runs with only its own handler installed, so neither pays for matching the
// other's URL. Wall-clock timing (and process CPU time, steadier on a loaded machine) is the point
// here: this is a benchmark, never a test assertion, and nothing here feeds a report outside `timing`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { HttpHandler } from 'msw';
import { FaultNetwork } from './net/fault-network.ts';
import { META_CALL } from './protocol/json-rpc.ts';
import { acquireMsw, releaseMsw, route } from './net/msw-host.ts';
import { Recorder } from './protocol/recorder.ts';
import { SdkServer } from './peers/sdk-server.ts';
import { VirtualTime } from './protocol/virtual-time.ts';
import { realTick } from './protocol/real-timers.ts';
import { NO_ADDITIONS } from '../../models/additions.ts';

const FAULTED_URL = 'http://faulted.throughput.test/mcp';
const BARE_URL = 'http://bare.throughput.test/mcp';

/** Calls per timed block: short, so that both arms see the same machine; each block ends with a yield (msw needs one). */
const BLOCK = 200;

/** The SDK client's transport passes one AbortSignal to every fetch, and each intercepted Request
 *  adds a listener to it: past ~1500 calls on one session Node warns of a leak. Each arm therefore
 *  opens a fresh session every CALLS_PER_SESSION calls, connected outside the timed part. */
const CALLS_PER_SESSION = 1000;

/** One arm: its URL, its handler, its session, and what its timed blocks took. */
interface Arm {
  url: string;
  handler: HttpHandler;
  client: Client | null;
  /** Calls on the current session. */
  used: number;
  calls: number;
  /** Wall-clock and CPU milliseconds of its timed blocks. */
  wallMs: number;
  cpuMs: number;
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'throughput', version: '0.1.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

export interface WireThroughput {
  callsPerSecond: number;
  bareCallsPerSecond: number;
  /** CPU milliseconds per call, over all of each arm's blocks. */
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
  const network = new FaultNetwork([], recorder, faultedServer, { configReset: () => false }, 0, NO_ADDITIONS);
  const arm = (url: string, handler: HttpHandler): Arm => ({ url, handler, client: null, used: 0, calls: 0, wallMs: 0, cpuMs: 0 });
  const bare = arm(
    BARE_URL,
    route(BARE_URL, (request) => bareServer.handle(request)),
  );
  const faulted = arm(
    FAULTED_URL,
    route(FAULTED_URL, (request) => network.carry(request)),
  );
  /** `n` sequential tools/calls of one arm, timed unless it is the warm-up. */
  const block = async (a: Arm, n: number, timed: boolean): Promise<void> => {
    msw.resetHandlers();
    msw.use(a.handler);
    if (a.client === null || a.used + n > CALLS_PER_SESSION) {
      await a.client?.close();
      a.client = await connect(a.url);
      a.used = 0;
      // The recorder's history is dropped with each session: a benchmark measures the network, not a growing array.
      if (a === faulted) recorder.entries.length = 0;
    }
    const start = performance.now(); // wall-clock timing: a throughput figure, never a result
    const cpu = process.cpuUsage();
    for (let i = 0; i < n; i++) await a.client.callTool({ name: 'work', arguments: {}, _meta: { [META_CALL]: a.used + i } });
    // The block is timed to the end of its event-loop turn: what its calls left for that turn (msw's and
    // undici's cleanup) is its own cost. Timed to its last call only, that work fell outside the bare arm's
    // blocks but inside the fault network's, which yields a turn every 200 requests: with the network reduced
    // to a pass-through, the arms measured 0.88–0.95 of each other that way, 0.99–1.02 this way.
    await realTick();
    const used = process.cpuUsage(cpu);
    const wallMs = performance.now() - start; // wall-clock timing
    a.used += n;
    if (!timed) return;
    a.calls += n;
    a.wallMs += wallMs;
    a.cpuMs += (used.user + used.system) / 1000;
  };
  try {
    await block(bare, Math.min(50, calls), false);
    await block(faulted, Math.min(50, calls), false);
    for (let done = 0, turn = 0; done < calls; turn++) {
      const n = Math.min(BLOCK, calls - done);
      // Which arm goes first alternates: what one leaves behind (garbage, warm caches) falls on each in turn.
      const [first, second] = turn % 2 === 0 ? [faulted, bare] : [bare, faulted];
      await block(first, n, true);
      await block(second, n, true);
      done += n;
    }
    return {
      callsPerSecond: Math.round(faulted.calls / (faulted.wallMs / 1000)),
      bareCallsPerSecond: Math.round(bare.calls / (bare.wallMs / 1000)),
      cpuMsPerCall: Math.round((faulted.cpuMs / faulted.calls) * 1000) / 1000,
      bareCpuMsPerCall: Math.round((bare.cpuMs / bare.calls) * 1000) / 1000,
    };
  } finally {
    await faulted.client?.close();
    await bare.client?.close();
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

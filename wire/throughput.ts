// Wire throughput, for `npm run bench`: the SDK client ↔ SDK server `tools/call` rate through the
// fault network with no faults (request counting, body inspection, history recording, SSE
// watching; latency 0), against the same client and server through a bare msw handler, measured
// in the same run, alternating rounds, median of each. Wall-clock timing is the point here: this
// is a benchmark, never a test assertion, and nothing here feeds a report outside `timing`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
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

/** Calls per second of `calls` sequential tools/calls (yielding now and then, as msw needs). */
async function rate(url: string, calls: number): Promise<number> {
  let elapsed = 0;
  for (let done = 0; done < calls; ) {
    const client = await connect(url);
    const n = Math.min(CALLS_PER_SESSION, calls - done);
    const start = performance.now(); // wall-clock timing: a throughput figure, never a result
    for (let i = 0; i < n; i++) {
      await client.callTool({ name: 'work', arguments: {}, _meta: { [META_CALL]: done + i } });
      if (i % 200 === 199) await realTick();
    }
    elapsed += performance.now() - start; // wall-clock timing
    done += n;
    await client.close();
  }
  return calls / (elapsed / 1000);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function measureWireThroughput(opts: { calls: number }): Promise<{ callsPerSecond: number; bareCallsPerSecond: number }> {
  const calls = Math.max(1, Math.floor(opts.calls));
  const msw = acquireMsw();
  const bareServer = new SdkServer('sdk-sse');
  const faultedServer = new SdkServer('sdk-sse');
  // No faults, no latency: the network's own work, on the real clock (nothing waits on a timer).
  const recorder = new Recorder(new VirtualTime());
  const network = new FaultNetwork([], recorder, faultedServer, { configReset: () => false }, 0);
  msw.use(
    route(BARE_URL, (request) => bareServer.handle(request)),
    route(FAULTED_URL, (request) => network.carry(request)),
  );
  try {
    const warm = Math.min(50, calls);
    await rate(BARE_URL, warm);
    await rate(FAULTED_URL, warm);
    const faultedRates: number[] = [];
    const bareRates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // The recorder's history is dropped between rounds: a benchmark measures the network, not a growing array.
      recorder.entries.length = 0;
      faultedRates.push(await rate(FAULTED_URL, calls));
      bareRates.push(await rate(BARE_URL, calls));
    }
    return { callsPerSecond: Math.round(median(faultedRates)), bareCallsPerSecond: Math.round(median(bareRates)) };
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

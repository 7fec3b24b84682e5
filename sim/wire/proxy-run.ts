// One wire run whose client is another process (cmd-client.ts): the same fault network, plan and
// history as `runWire`, but the client reaches it over real HTTP through the loopback proxy
// (http-proxy.ts), and the run is on the wall clock (wall-time.ts) — a real client keeps real
// timers. A run ends when every call has ended, or after RUN_LIMIT_MS of real time (its open calls
// then end `never`, as past the model tier's horizon); a run against a loopback server is also armed
// on that endpoint's watchdog. The client's process group is ended on every path.
import type { PolicyAdditions } from '../../models/additions.ts';
import { HISTORY_VERSION, type History } from '../core/history.ts';
import { sortPlan, type FaultPlan } from '../core/plan.ts';
import type { Workload } from '../core/workload.ts';
import { CmdClient } from './process/cmd-client.ts';
import { FaultNetwork } from './net/fault-network.ts';
import { HttpFaultProxy, type InFlight } from './net/http-proxy.ts';
import { Recorder } from './protocol/recorder.ts';
import { describeSides, modelCombination, toolsOf, type WireSetup } from './setup.ts';
import { realSleep } from './protocol/real-timers.ts';
import { WallTime } from './protocol/wall-time.ts';
import { serverFor } from './server-for.ts';

/** Real ms a run with a client process may take before its open calls end `never`. */
export const RUN_LIMIT_MS = 30_000;

/** Whether the run can end now: a fault has acted, no exchange is in flight and nothing has moved for
 *  `ms` real ms. A call still open then waits on a timer of its own, or on nothing: no answer is coming. */
function quietWatch(time: WallTime, recorder: Recorder, inFlight: InFlight, ms: number): () => boolean {
  let seen = -1;
  let since = 0;
  return () => {
    if (inFlight.count > 0 || !recorder.entries.some((e) => e.kind === 'fault' && e.applied)) {
      seen = -1;
      return false;
    }
    if (time.activity !== seen) {
      seen = time.activity;
      since = time.now;
    }
    return time.now - since >= ms;
  };
}

export async function runThroughProxy(
  setup: WireSetup,
  command: string,
  input: { workload: Workload; plan: FaultPlan },
  latencyMs: number,
  additions: PolicyAdditions,
): Promise<History> {
  const plan = sortPlan(input.plan);
  const time = new WallTime();
  const recorder = new Recorder(time);
  const server = serverFor(setup, recorder, additions);
  const hooks = { configReset: (): boolean => client.configReset() };
  const network: FaultNetwork = new FaultNetwork(plan, recorder, server, hooks, latencyMs, additions);
  network.recordRpcIds = true;
  const proxy = await HttpFaultProxy.start(network);
  const path = setup.server.kind === 'loopback' ? new URL(setup.server.endpoint.url).pathname : '/mcp';
  const c = setup.client.kind === 'cmd' ? setup.client : null;
  const options = c ? { revision: c.revision, agentLoop: c.agentLoop, timeoutMs: c.timeoutMs } : {};
  const client: CmdClient = new CmdClient(command, `${proxy.origin}${path}`, toolsOf(setup), recorder, network, input.workload, options);
  // A loopback server's adapter arms the endpoint's watchdog itself; otherwise the client's is armed here.
  const watchdog = setup.server.kind === 'loopback' || setup.client.kind !== 'cmd' ? undefined : setup.client.watchdog;
  watchdog?.runStarted();
  try {
    client.start();
    const started = time.now;
    const limit = (setup.client.kind === 'cmd' ? setup.client.runLimitMs : undefined) ?? RUN_LIMIT_MS;
    // The command's watchdog may have ended it meanwhile (this run, or the loopback server's): stop, do not linger.
    const ended = setup.client.kind === 'cmd' ? setup.client.watchdog : undefined;
    const quiet = c?.quietEndMs === undefined ? null : quietWatch(time, recorder, proxy.inFlight, c.quietEndMs);
    while (!client.agent.done && time.now - started < limit && !ended?.hasFired && !quiet?.()) await realSleep(5);
    if (!client.agent.done) recorder.record({ kind: 'budget-exhausted', steps: 0 });
    for (const callId of client.agent.open()) {
      const { req, attempts } = client.pendingRequest(callId);
      client.agent.end(callId, attempts, req, { end: 'never', answer: network.answer(req), serverFinished: network.serverFinished(req) });
    }
    recorder.close();
  } finally {
    watchdog?.runEnded();
    await client.close();
    await proxy.close();
    await server.close();
  }
  return {
    version: HISTORY_VERSION,
    combination: modelCombination(setup),
    wire: describeSides(setup),
    workload: input.workload,
    plan,
    schedule: [],
    entries: recorder.entries,
  };
}

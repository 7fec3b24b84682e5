// One wire run: the workload drives a client (the model over real HTTP, or the SDK) through the
// msw fault network to a server (the model behind HTTP, the SDK, or a loopback server), under one
// fault plan, on virtual time. It returns the same History as the model tier (world/world.ts), so
// the same oracles, reports, shrinking and replay apply.
//
// The driver: let the process settle (every in-process part has done what it can without a timer,
// and no exchange with a real server is open), then fire the next timer — a latency, a `delay:`,
// the client's deadline, an SSE keep-alive — and repeat until every call has ended. A run is
// bounded by virtual time (`horizonMs`) and by a budget of timer firings; calls still open then
// end `never`, as in the model tier.
import { HISTORY_VERSION, type History } from '../core/history.ts';
import { sortPlan, type FaultPlan } from '../core/plan.ts';
import type { Workload } from '../core/workload.ts';
import { NO_ADDITIONS, type PolicyAdditions } from '../../models/additions.ts';
import { FaultNetwork } from './net/fault-network.ts';
import { ModelClientHttp } from './peers/model-client-http.ts';
import { acquireMsw, install, releaseMsw, route } from './net/msw-host.ts';
import { Recorder } from './protocol/recorder.ts';
import { SdkClient } from './peers/sdk-client.ts';
import { Sdk2Client } from './peers/sdk2-client.ts';
import { VirtualTime } from './protocol/virtual-time.ts';
import { runThroughProxy } from './proxy-run.ts';
import { serverFor } from './server-for.ts';
import { describeSides, modelCombination, toolsOf, type WireSetup } from './setup.ts';

export interface WireOptions {
  /** One-way network latency, virtual ms (the model world's). */
  latencyMs: number;
  /** The model client's request deadline, virtual ms (the SDK client keeps its own 60 s). */
  deadlineMs: number;
  /** Virtual time after which a run is stopped and its open calls end `never`. */
  horizonMs: number;
  /** Timer firings a run may take before it is stopped and marked. */
  stepBudget: number;
  /** What policy modules add (models/additions.ts), passed to the network and the model's sides. */
  additions?: PolicyAdditions;
  /** The model client only: told of every JSON message it receives (the audit's schema check). */
  onMessage?: (answers: string, status: number, message: unknown) => void;
}

export const DEFAULT_WIRE: WireOptions = { latencyMs: 5, deadlineMs: 30_000, horizonMs: 600_000, stepBudget: 10_000 };

/** The URL of the in-process servers: runs are sequential, so one will do (and keeps histories equal). */
export const IN_PROCESS_URL = 'http://mcp.faultsim.test/mcp';

export interface WireInput {
  workload: Workload;
  plan: FaultPlan;
}

export async function runWire(setup: WireSetup, input: WireInput, options: Partial<WireOptions> = {}): Promise<History> {
  const o = { ...DEFAULT_WIRE, ...options };
  // A client in another process runs on the wall clock, through the loopback proxy.
  const additions = o.additions ?? NO_ADDITIONS;
  if (setup.client.kind === 'cmd') return runThroughProxy(setup, setup.client.command, input, o.latencyMs, additions);
  const plan = sortPlan(input.plan);
  const time = new VirtualTime();
  const recorder = new Recorder(time);
  const url = setup.server.kind === 'loopback' ? setup.server.endpoint.url : IN_PROCESS_URL;
  const server = serverFor(setup, recorder, additions);
  const hooks = { configReset: (): boolean => client.configReset() };
  const network: FaultNetwork = new FaultNetwork(plan, recorder, server, hooks, o.latencyMs, additions);
  const client: ModelClientHttp | SdkClient | Sdk2Client =
    setup.client.kind === 'model'
      ? new ModelClientHttp(setup.client.policy, o.deadlineMs, url, toolsOf(setup), recorder, network, input.workload, additions)
      : setup.client.kind === 'sdk2'
        ? new Sdk2Client(setup.client.protocol, url, toolsOf(setup), recorder, network, input.workload)
        : new SdkClient(url, toolsOf(setup), recorder, network, input.workload, setup.client.connect ?? null);

  if (o.onMessage && client instanceof ModelClientHttp) client.onReceived = o.onMessage;
  const msw = acquireMsw();
  const uninstall = install(
    msw,
    route(url, (request) => network.carry(request)),
  );
  time.install();
  try {
    client.start();
    let fired = 0;
    for (;;) {
      await time.settle();
      if (client.agent.done) break;
      if (time.now > o.horizonMs || fired >= o.stepBudget) {
        recorder.record({ kind: 'budget-exhausted', steps: fired });
        break;
      }
      if (!time.advance()) break;
      fired++;
    }
    for (const callId of client.agent.open()) {
      const { req, attempts } = client.pendingRequest(callId);
      client.agent.end(callId, attempts, req, { end: 'never', answer: network.answer(req), serverFinished: network.serverFinished(req) });
    }
    recorder.close();
    await client.close();
    await server.close();
    await time.settle(100);
  } finally {
    time.uninstall();
    uninstall();
    releaseMsw();
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

// Your own code under the fault plans, from your own test suite (`mcp-faultsim/vitest`): a server
// given as a fetch-style handler, driven by the official SDK's client (or your own), or your own
// client against the in-process SDK server (or your handler). The same arbitraries, oracles and
// shrinking as `check --wire`; a violated or never-reached property throws an Error whose message
// is the report with the shrunk counterexample. Nothing here imports vitest: any runner will do.
import { expandFault, type FaultName } from '../../models/faults.ts';
import { propertyByName, propertyNames, type Property, type PropertyName } from '../../properties/properties.ts';
import { wireCheck, type WireCheckResult } from './check.ts';
import { handlerEndpoint, type HandlerServerOptions, type HandlerTarget } from './process/handler-server.ts';
import type { ClientFactory } from './peers/sdk-client.ts';
import type { SdkServerPreset } from './peers/sdk-server.ts';
import type { WireClientSpec, WireSetup } from './setup.ts';
import type { WireOptions } from './world.ts';
import { NO_ADDITIONS } from '../../models/additions.ts';
import { call } from '../core/workload.ts';
import { runWire } from './world.ts';

/** The silent-failure properties: what "no silent failures" means. Not at-most-once: which of your
 *  tools has a side effect is not known here (properties/properties.ts `sideEffects`). */
export const SILENT_FAILURE_PROPERTIES: readonly PropertyName[] = propertyNames(['silent'], { sideEffects: false });

export interface WireTestOptions {
  /** Fault names or families (default: every fault the vocabulary has). */
  faults?: readonly string[];
  /** Random plans (default 100). */
  runs?: number;
  /** The same seed draws the same plans (default 1). */
  seed?: number;
  /** Property names (default: no-silent-empty, no-silent-hang). */
  properties?: readonly string[];
  /** Virtual-time settings of the runs (latency, the model client's deadline, the horizon). */
  wire?: Partial<WireOptions>;
}

export interface HandlerTestOptions extends WireTestOptions, HandlerServerOptions {
  /** Your own client instead of the official SDK's. */
  client?: ClientFactory;
}

export interface ClientTestOptions extends WireTestOptions {
  /** What your client talks to (default `sdk-sse`, the official SDK server; `sdk-json` answers with JSON). */
  server?: SdkServerPreset | ({ handler: HandlerTarget } & HandlerServerOptions);
  /** How reports name it (default `your client`). */
  name?: string;
}

/** Bad options are the caller's mistake: said in one line. */
function faultsOf(names: readonly string[] | undefined): FaultName[] | undefined {
  if (names === undefined) return undefined;
  if (names.length === 0)
    throw new TypeError('faults: [] names no fault to inject: give at least one fault or family, or leave faults out for all of them');
  return names.flatMap((name) => {
    const f = expandFault(name, NO_ADDITIONS);
    if (typeof f === 'string') throw new TypeError(f);
    return f;
  });
}

function propertiesOf(names: readonly string[] = SILENT_FAILURE_PROPERTIES): Property[] {
  return names.map((name) => {
    const p = propertyByName(name);
    if (!p) throw new TypeError(`unknown property '${name}'`);
    return p;
  });
}

/** Thrown when the fault-free run already fails: no fault's finding, the code is broken without faults. */
export class BrokenWithoutFaults extends Error {
  override name = 'BrokenWithoutFaults';
}

/** The fault-free run first: a call of it that does not come back with a result is reported as that,
 *  never as a fault's finding (every fault-free outcome is what faulted runs are judged against). */
async function requireFaultFree(setup: WireSetup, wire: Partial<WireOptions> | undefined): Promise<void> {
  const h = await runWire(setup, { workload: [call(false), call(true)], plan: [] }, wire);
  const failed = h.entries.find((e) => e.kind === 'end' && e.end !== 'result');
  if (failed?.kind !== 'end') return;
  const how = failed.end === 'error' ? `failed: ${failed.reason}` : failed.end === 'deadline' ? 'ran into the deadline' : 'never ended';
  throw new BrokenWithoutFaults(
    `broken without faults: the fault-free run already fails (call ${failed.callId} ${how}); nothing under a fault can be judged`,
  );
}

async function run(setup: WireSetup, o: WireTestOptions): Promise<WireCheckResult> {
  const faults = faultsOf(o.faults);
  const properties = propertiesOf(o.properties);
  const { seed = 1, runs = 100 } = o;
  await requireFaultFree(setup, o.wire);
  // Judged by shape (item counts and types, error or result), never by text: a stateful server's
  // answers differ run to run without any fault.
  return wireCheck(setup, {
    ...(faults ? { faults } : {}),
    properties,
    seed,
    runs,
    ...(o.wire ? { wire: o.wire } : {}),
    byShape: true,
  });
}

function sdkOrYours(client: ClientFactory | undefined, name?: string): WireClientSpec {
  return client ? { kind: 'sdk', connect: client, ...(name ? { name } : {}) } : { kind: 'sdk' };
}

/** Your server under the fault plans: the result as data (nothing thrown for a violation). */
export function checkHandler(handler: HandlerTarget, options: HandlerTestOptions): Promise<WireCheckResult> {
  return run({ client: sdkOrYours(options.client), server: { kind: 'loopback', endpoint: handlerEndpoint(handler, options) } }, options);
}

/** Your client under the fault plans: the result as data. */
export function checkClient(client: ClientFactory, options: ClientTestOptions = {}): Promise<WireCheckResult> {
  const s = options.server ?? 'sdk-sse';
  const server: WireSetup['server'] =
    typeof s === 'string' ? { kind: 'sdk', preset: s } : { kind: 'loopback', endpoint: handlerEndpoint(s.handler, s) };
  return run({ client: sdkOrYours(client, options.name ?? 'your client'), server }, options);
}

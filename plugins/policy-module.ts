// Designers' policy modules (`--policies ./my-policy.ts`): a module's default export, built with
// `definePolicies`, may add server re-init policies, client reconnect strategies, guards, faults,
// properties, and named cells for the default `compare` matrix. The loader checks the module's
// shape (a mistake is one line naming it, exit 2), registers each addition beside the built-ins,
// and wraps every hook in the sandbox, so that a hook that throws, hangs or answers nonsense
// becomes a `policy-error` finding of the combination it ran in.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CapabilitySet } from '../models/capabilities.ts';
import type { ClientConfig, InitParams } from '../models/client-context.ts';
import type { ReinitView, ResponseView } from '../models/client-guards.ts';
import { allFaultFamilies } from '../models/faults.ts';
import type { HttpRequest, HttpResponse } from '../models/messages.ts';
import { knobValues, type ClientOverrides, type ServerOverrides } from '../models/policies.ts';
import type { ReconnectView } from '../models/reconnect.ts';
import { EXTENSIONS } from '../models/registry.ts';
import type { ReinitDecision, ReinitInput } from '../models/reinit.ts';
import type { CallOutcome } from '../properties/outcomes.ts';
import type { PropertyVerdict } from '../properties/properties.ts';
import { clearRegisteredProperties, findProperty, registerProperty } from '../properties/registry.ts';
import type { History } from '../core/history.ts';
import type { ExtraCell } from '../compare/matrix.ts';
import { capabilities, ExitCalled, isRecord, oneOf, reasonOrNull, sandboxed, withoutExit } from './sandbox.ts';
import { probeImport } from './import-probe.ts';
import { decision, faultResult, initParams, verdict } from './answers.ts';
import { cellsOf } from './cells.ts';

/** What a policy module's default export may hold. Every part is optional. */
export interface PolicyModule {
  server?: { reinit?: Record<string, { describe: string; decide: (input: ReinitInput) => ReinitDecision; opening?: (clientCaps: CapabilitySet) => CapabilitySet }> };
  client?: {
    reconnect?: Record<string, { describe: string; afterFailure: (view: ReconnectView) => 'replay' | 'new-session'; handshake: (view: { config: ClientConfig; cached: InitParams | null }) => InitParams }>;
    guards?: Record<string, { describe: string; checkResponse?: (view: ResponseView) => string | null; checkReinitialize?: (view: ReinitView) => string | null }>;
  };
  faults?: Record<
    string,
    {
      describe: string;
      instances?: string[];
      request?: (input: { fault: string; request: HttpRequest }) => { applied: boolean; detail: string; request?: HttpRequest; answer?: HttpResponse };
      response?: (input: { fault: string; response: HttpResponse }) => { applied: boolean; detail: string; response?: HttpResponse; delayMs?: number; lostAnswer?: boolean };
    }
  >;
  properties?: Record<string, { holdsWhen: string; check: (history: History, outcomes: readonly CallOutcome[]) => PropertyVerdict }>;
  /** Named combinations for the default `compare` matrix: a record's vulnerable cell with some knobs
   *  changed (under that record's alphabet and the whole vocabulary), or a combination of your own. */
  cells?: { name: string; record?: '000' | '003'; server?: ServerOverrides; client?: ClientOverrides; faults?: string[] }[];
}

/** Identity, for the types: `export default definePolicies({ … })`. */
export function definePolicies<T extends PolicyModule>(module: T): T {
  return module;
}

/** A module that cannot be used: one line naming the module and what is wrong. */
export class PolicyLoadError extends Error {}

const NAME = /^[a-z][a-z0-9-]*$/;
const loaded = new Map<string, ExtraCell[]>();

function fail(source: string, message: string): never {
  throw new PolicyLoadError(`--policies ${source}: ${message}`);
}

function entries(source: string, where: string, v: unknown): [string, Record<string, unknown>][] {
  if (v === undefined) return [];
  if (!isRecord(v)) fail(source, `${where} should be an object of named definitions`);
  return Object.entries(v).map(([name, def]) => {
    if (!NAME.test(name)) fail(source, `${where} name '${name}' should be lower-case letters, digits and '-'`);
    if (!isRecord(def)) fail(source, `${where}.${name} should be an object`);
    if (typeof def.describe !== 'string' && where !== 'properties') fail(source, `${where}.${name} needs describe: a one-line string`);
    return [name, def];
  });
}

function fn(source: string, where: string, def: Record<string, unknown>, key: string, required: boolean): ((input: any) => unknown) | undefined {
  const v = def[key];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'function') fail(source, `${where} needs ${key}: a function`);
  return v as (input: any) => unknown;
}

function only(source: string, where: string, v: Record<string, unknown>, keys: readonly string[]): void {
  const extra = Object.keys(v).find((k) => !keys.includes(k));
  if (extra) fail(source, `${where} has an unknown key '${extra}' (valid: ${keys.join(', ')})`);
}

function checkNew(source: string, what: string, name: string, taken: readonly string[]): void {
  if (taken.includes(name)) fail(source, `${what} '${name}' already exists (built in or registered by another module)`);
}

/** Register one module's additions. `source` names it in messages and reports. */
export function registerPolicies(m: unknown, source: string): ExtraCell[] {
  if (!isRecord(m)) fail(source, 'the default export should be an object (use definePolicies({ … }))');
  only(source, 'the module', m, ['server', 'client', 'faults', 'properties', 'cells']);
  const server = m.server === undefined ? {} : isRecord(m.server) ? m.server : fail(source, 'server should be an object');
  const client = m.client === undefined ? {} : isRecord(m.client) ? m.client : fail(source, 'client should be an object');
  only(source, 'server', server, ['reinit']);
  only(source, 'client', client, ['reconnect', 'guards']);

  for (const [name, def] of entries(source, 'server.reinit', server.reinit)) {
    only(source, `server.reinit.${name}`, def, ['describe', 'decide', 'opening']);
    checkNew(source, 'server.reinit', name, knobValues('server', 'reinit'));
    const label = `server.reinit=${name}`;
    const opening = fn(source, `server.reinit.${name}`, def, 'opening', false);
    EXTENSIONS.reinit.add(
      {
        name,
        describe: def.describe as string,
        decide: sandboxed(label, 'decide', fn(source, `server.reinit.${name}`, def, 'decide', true)!, decision),
        ...(opening ? { opening: sandboxed(label, 'opening', opening, capabilities) } : {}),
      },
      source,
    );
  }
  for (const [name, def] of entries(source, 'client.reconnect', client.reconnect)) {
    only(source, `client.reconnect.${name}`, def, ['describe', 'afterFailure', 'handshake']);
    checkNew(source, 'client.reconnect', name, knobValues('client', 'reconnect'));
    const label = `client.reconnect=${name}`;
    EXTENSIONS.reconnect.add(
      {
        name,
        describe: def.describe as string,
        afterFailure: sandboxed(label, 'afterFailure', fn(source, `client.reconnect.${name}`, def, 'afterFailure', true)!, oneOf(['replay', 'new-session'] as const)),
        handshake: sandboxed(label, 'handshake', fn(source, `client.reconnect.${name}`, def, 'handshake', true)!, initParams),
      },
      source,
    );
  }
  for (const [name, def] of entries(source, 'client.guards', client.guards)) {
    only(source, `client.guards.${name}`, def, ['describe', 'checkResponse', 'checkReinitialize']);
    checkNew(source, 'client.guards', name, knobValues('client', 'guards'));
    const label = `client.guards=${name}`;
    const res = fn(source, `client.guards.${name}`, def, 'checkResponse', false);
    const reinit = fn(source, `client.guards.${name}`, def, 'checkReinitialize', false);
    if (!res && !reinit) fail(source, `client.guards.${name} needs checkResponse or checkReinitialize (or both)`);
    EXTENSIONS.guards.add(
      {
        name,
        describe: def.describe as string,
        ...(res ? { checkResponse: sandboxed(label, 'checkResponse', res, reasonOrNull) } : {}),
        ...(reinit ? { checkReinitialize: sandboxed(label, 'checkReinitialize', reinit, reasonOrNull) } : {}),
      },
      source,
    );
  }
  for (const [name, def] of entries(source, 'faults', m.faults)) {
    only(source, `faults.${name}`, def, ['describe', 'instances', 'request', 'response']);
    const taken = allFaultFamilies().flatMap((f) => [f.kind, ...f.instances]);
    checkNew(source, 'fault', name, taken);
    const instances = def.instances === undefined ? [name] : def.instances;
    if (!Array.isArray(instances) || instances.length === 0 || instances.some((i) => typeof i !== 'string' || (i !== name && !i.startsWith(`${name}:`)))) {
      fail(source, `faults.${name}.instances should list '${name}' or '${name}:<something>' names`);
    }
    const request = fn(source, `faults.${name}`, def, 'request', false);
    const response = fn(source, `faults.${name}`, def, 'response', false);
    if (!request && !response) fail(source, `faults.${name} needs request or response (or both)`);
    EXTENSIONS.faults.add(
      {
        name,
        describe: def.describe as string,
        instances: instances as string[],
        ...(request ? { request: sandboxed(`fault ${name}`, 'request', request, faultResult('request')) } : {}),
        ...(response ? { response: sandboxed(`fault ${name}`, 'response', response, faultResult('response')) } : {}),
      },
      source,
    );
  }
  for (const [name, def] of entries(source, 'properties', m.properties)) {
    only(source, `properties.${name}`, def, ['holdsWhen', 'check']);
    if (findProperty(name)) fail(source, `property '${name}' already exists`);
    if (typeof def.holdsWhen !== 'string') fail(source, `properties.${name} needs holdsWhen: a one-line string`);
    const userCheck = fn(source, `properties.${name}`, def, 'check', true) as unknown as (h: History, o: readonly CallOutcome[]) => unknown;
    // The sandbox passes one argument; a property takes the history and the outcomes.
    const check = sandboxed(`property ${name}`, 'check', (i: { h: History; o: readonly CallOutcome[] }) => userCheck(i.h, i.o), verdict);
    registerProperty({ name, holdsWhen: def.holdsWhen, check: (history, outcomes) => check({ h: history, o: outcomes }) }, source);
  }
  return cellsOf(source, m.cells, fail);
}

/** Load policy modules (paths as given, relative to the working directory); each is loaded once. */
export async function loadPolicies(paths: readonly string[]): Promise<ExtraCell[]> {
  const cells: ExtraCell[] = [];
  for (const source of paths) {
    const file = resolve(source);
    let cached = loaded.get(file);
    if (!cached) {
      let module: { default?: unknown };
      const url = pathToFileURL(file).href;
      const problem = await probeImport(url);
      if (problem) fail(source, `cannot load it: it ${problem}`);
      try {
        module = (await withoutExit(() => import(url))) as { default?: unknown };
      } catch (e) {
        const message = e instanceof ExitCalled ? `it calls process.exit(${e.code}) while loading` : e instanceof Error ? e.message.split('\n')[0] : String(e);
        fail(source, `cannot load it: ${message}`);
      }
      if (module.default === undefined) fail(source, 'has no default export (export default definePolicies({ … }))');
      try {
        cached = registerPolicies(module.default, source);
      } catch (e) {
        if (e instanceof PolicyLoadError) throw e;
        fail(source, e instanceof Error ? e.message : String(e));
      }
      loaded.set(file, cached);
    }
    cells.push(...cached);
  }
  return cells;
}

/** Tests only: forget every loaded module and everything it registered. */
export function unloadPolicies(): void {
  loaded.clear();
  for (const ext of Object.values(EXTENSIONS)) ext.clear();
  clearRegisteredProperties();
}

// Designers' policy modules (`--policies ./my-policy.ts`): a module's default export, built with
// `definePolicies` (define-policies.ts says what it may hold: knobs of its own, which its hooks read,
// server re-init policies, client reconnect strategies, guards, faults, properties, and named cells
// for the default `compare` matrix). The loader checks the module's shape (plugins/policy-schema.ts; a mistake is one line naming it, exit 2), registers each
// addition into a registry value of its own (plugins/loaded.ts; nothing process-global), and
// wraps every hook in the sandbox, so that a hook that throws, hangs or answers nonsense becomes
// a `policy-error` finding of the combination it ran in.
import { resolve } from 'node:path';
import type { z } from 'zod';
import { pathToFileURL } from 'node:url';
import { allFaultFamilies } from '../../models/faults.ts';
import { knobsOf, knobValues } from '../../models/policies.ts';
import type { HistoryFrame } from '../../properties/fold.ts';
import type { CallOutcome, Reference } from '../../properties/outcomes.ts';
import { registerProperty } from '../../properties/registered.ts';
import { propertyByName } from '../../properties/properties.ts';
import type { History, HistoryEntry } from '../core/history.ts';
import { parseWith } from '../core/schema-issue.ts';
import { bad, capabilities, ExitCalled, isRecord, ok, oneOf, reasonOrNull, sandboxed, withoutExit } from './sandbox.ts';
import { probeImport } from './import-probe.ts';
import { decision, faultResult, initParams, verdict } from './answers.ts';
import { cellsOf } from './cells.ts';
import { policyModuleSchema } from './policy-schema.ts';
import type { PolicyAdditions } from '../../models/additions.ts';
import { draftRegistry, type Registry, type RegistryDraft } from './loaded.ts';
import type { PropertyDescription } from './define-policies.ts';

export {
  definePolicies,
  type CheckDefinition,
  type FoldDefinition,
  type KnobDefinition,
  type PolicyModule,
} from './define-policies.ts';

/** A module that cannot be used: one line naming the module and what is wrong. */
export class PolicyLoadError extends Error {}

function fail(source: string, message: string): never {
  throw new PolicyLoadError(`--policies ${source}: ${message}`);
}

function checkNew(source: string, what: string, name: string, taken: readonly string[]): void {
  if (taken.includes(name)) fail(source, `${what} '${name}' already exists (built in or registered by another module)`);
}

/** Register one module's additions into `into` (a new registry unless given), and return it.
 *  `source` names the module in messages and reports. */
export function registerPolicies(m: unknown, source: string, into: RegistryDraft = draftRegistry()): RegistryDraft {
  if (!isRecord(m)) fail(source, 'the default export should be an object (use definePolicies({ … }))');
  const parsed = parseWith(policyModuleSchema, m, 'the module');
  if (!parsed.ok) fail(source, parsed.message);
  const module = parsed.value;
  registerKnobs(module, source, into.additions);
  registerReinit(module.server?.reinit ?? {}, source, into.additions);
  registerReconnect(module.client?.reconnect ?? {}, source, into.additions);
  registerGuards(module.client?.guards ?? {}, source, into.additions);
  registerFaults(module.faults ?? {}, source, into.additions);
  registerProperties(module.properties ?? {}, source, into);
  // Cells name knob values and faults of this registry (combination() normalizes guards by them).
  into.cells.push(...cellsOf(source, module.cells, into.additions, fail));
  return into;
}

type PolicyModule = z.infer<typeof policyModuleSchema>;
type ServerDefs = NonNullable<PolicyModule['server']>;
type ClientDefs = NonNullable<PolicyModule['client']>;

/** Knobs of the module's own, each side's. */
function registerKnobs(module: PolicyModule, source: string, additions: PolicyAdditions): void {
  for (const side of ['server', 'client'] as const) {
    for (const [knob, def] of Object.entries(module[side]?.knobs ?? {})) {
      checkNew(
        source,
        `${side} knob`,
        knob,
        knobsOf(side, additions).map((k) => k.knob),
      );
      additions.knobs.add({ name: `${side}.${knob}`, side, knob, ...def }, source);
    }
  }
}

function registerReinit(defs: NonNullable<ServerDefs['reinit']>, source: string, additions: PolicyAdditions): void {
  for (const [name, def] of Object.entries(defs)) {
    checkNew(source, 'server.reinit', name, knobValues('server', 'reinit', additions));
    const label = `server.reinit=${name}`;
    additions.reinit.add(
      {
        name,
        describe: def.describe,
        decide: sandboxed(label, 'decide', def.decide, decision),
        ...(def.opening ? { opening: sandboxed(label, 'opening', def.opening, capabilities) } : {}),
      },
      source,
    );
  }
}

function registerReconnect(defs: NonNullable<ClientDefs['reconnect']>, source: string, additions: PolicyAdditions): void {
  for (const [name, def] of Object.entries(defs)) {
    checkNew(source, 'client.reconnect', name, knobValues('client', 'reconnect', additions));
    const label = `client.reconnect=${name}`;
    additions.reconnect.add(
      {
        name,
        describe: def.describe,
        afterFailure: sandboxed(label, 'afterFailure', def.afterFailure, oneOf(['replay', 'new-session'] as const)),
        handshake: sandboxed(label, 'handshake', def.handshake, initParams),
      },
      source,
    );
  }
}

function registerGuards(defs: NonNullable<ClientDefs['guards']>, source: string, additions: PolicyAdditions): void {
  for (const [name, def] of Object.entries(defs)) {
    checkNew(source, 'client.guards', name, knobValues('client', 'guards', additions));
    const label = `client.guards=${name}`;
    const { checkResponse: res, checkReinitialize: reinit } = def;
    if (!res && !reinit) fail(source, `client.guards.${name} needs checkResponse or checkReinitialize (or both)`);
    additions.guards.add(
      {
        name,
        describe: def.describe,
        ...(res ? { checkResponse: sandboxed(label, 'checkResponse', res, reasonOrNull) } : {}),
        ...(reinit ? { checkReinitialize: sandboxed(label, 'checkReinitialize', reinit, reasonOrNull) } : {}),
      },
      source,
    );
  }
}

function registerFaults(defs: NonNullable<PolicyModule['faults']>, source: string, additions: PolicyAdditions): void {
  for (const [name, def] of Object.entries(defs)) {
    const taken = allFaultFamilies(additions).flatMap((f) => [f.kind, ...f.instances]);
    checkNew(source, 'fault', name, taken);
    const instances = def.instances ?? [name];
    if (instances.some((i) => i !== name && !i.startsWith(`${name}:`))) {
      fail(source, `faults.${name}.instances should list '${name}' or '${name}:<something>' names`);
    }
    const { request, response } = def;
    if (!request && !response) fail(source, `faults.${name} needs request or response (or both)`);
    additions.faults.add(
      {
        name,
        describe: def.describe,
        instances,
        ...(request ? { request: sandboxed(`fault ${name}`, 'request', request, faultResult('request')) } : {}),
        ...(response ? { response: sandboxed(`fault ${name}`, 'response', response, faultResult('response')) } : {}),
      },
      source,
    );
  }
}

/** Properties: a fold (judged as the run goes) or a check of the whole history. */
function registerProperties(defs: NonNullable<PolicyModule['properties']>, source: string, into: RegistryDraft): void {
  for (const [name, def] of Object.entries(defs)) {
    if (def.check === undefined) {
      registerFold(into, source, name, def);
      continue;
    }
    if (propertyByName(name, into.properties)) fail(source, `property '${name}' already exists`);
    const userCheck = def.check as (h: History, o: readonly CallOutcome[]) => unknown;
    // The sandbox passes one argument; a property takes the history and the outcomes.
    const check = sandboxed(`property ${name}`, 'check', (i: { h: History; o: readonly CallOutcome[] }) => userCheck(i.h, i.o), verdict);
    registerProperty(
      into.properties,
      { name, ...described(def), check: (history, outcomes) => check({ h: history, o: outcomes }) },
      source,
    );
  }
}

/** What a module's property says of itself, its family and column head only where it gives them. */
function described(def: PropertyDescription): PropertyDescription {
  const { holdsWhen, family, column } = def;
  return { holdsWhen, ...(family && { family }), ...(column && { column }) };
}

/** A designer's fold: each of its functions sandboxed like any hook (its input copied, its time bounded). */
function registerFold(
  into: RegistryDraft,
  source: string,
  name: string,
  def: PropertyDescription & { init?: unknown; step?: unknown; verdict?: unknown; key?: unknown },
): void {
  if (propertyByName(name, into.properties)) fail(source, `property '${name}' already exists`);
  const part = (k: 'init' | 'step' | 'verdict' | 'key') => def[k] as (...args: unknown[]) => unknown;
  const [init, step, judge, key] = [part('init'), part('step'), part('verdict'), part('key')];
  const policy = `property ${name}`;
  const anyState = (raw: unknown) => ok(raw);
  const aKey = (raw: unknown) => (typeof raw === 'string' ? ok(raw) : bad('expected a string'));
  const sInit = sandboxed(policy, 'init', (i: { reference: Reference; frame: HistoryFrame }) => init!(i.reference, i.frame), anyState);
  const sStep = sandboxed(policy, 'step', (i: { state: unknown; entry: HistoryEntry }) => step!(i.state, i.entry), anyState);
  const sVerdict = sandboxed(policy, 'verdict', (i: { state: unknown }) => judge!(i.state), verdict);
  const sKey = sandboxed(policy, 'key', (i: { state: unknown; now: number }) => key!(i.state, i.now), aKey);
  registerProperty(
    into.properties,
    {
      name,
      ...described(def),
      init: (reference, frame) => sInit({ reference, frame }),
      step: (state, entry) => sStep({ state, entry }),
      verdict: (state) => sVerdict({ state }),
      key: (state, now) => sKey({ state, now }),
    },
    source,
  );
}

/** Import a module in .ts, .mts, .cts, .js, .mjs or .cjs, wherever it is: tsx compiles TypeScript and
 *  lets a file written as an ES module load inside a CommonJS package (it is then imported as
 *  CommonJS, its exports under `default`: unwrapped here). Compiled, the CLI registers no loader
 *  of its own; tsx's loader is scoped to this import. */
async function importModule(file: string): Promise<{ default?: unknown }> {
  const { tsImport } = await import('tsx/esm/api');
  const m = (await tsImport(pathToFileURL(file).href, import.meta.url)) as { default?: unknown };
  const d = m.default;
  const onlyDefault = isRecord(d) && Object.keys(d).every((k) => k === 'default' || k === '__esModule');
  if (isRecord(d) && d.default !== undefined && (d.__esModule === true || onlyDefault)) {
    return { default: d.default };
  }
  return m;
}

/** The first line of why a module would not load, and the fix where there is a known one. */
function loadFailure(e: unknown): string {
  const message = e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e);
  const code = (e as { code?: unknown } | null)?.code;
  const requireEsm = ['ERR_REQUIRE_ESM', 'ERR_REQUIRE_CYCLE_MODULE', 'ERR_REQUIRE_ASYNC_MODULE'].includes(String(code));
  if (requireEsm || /require\(\) ES Module/.test(message)) {
    const why = 'the file is loaded as CommonJS because the nearest package.json has no "type": "module"';
    return `${message} (${why}: name it .mts or .mjs, or add "type": "module")`;
  }
  return message;
}

// A module's default export, by resolved path: importing is slow and a module is evaluated once per
// process anyway. What it registers is not cached: each load makes a new registry from it.
const imported = new Map<string, unknown>();

async function defaultExport(source: string, file: string): Promise<unknown> {
  if (imported.has(file)) return imported.get(file);
  let module: { default?: unknown };
  const url = pathToFileURL(file).href;
  const problem = await probeImport(url);
  if (problem) fail(source, `cannot load it: it ${problem}`);
  try {
    module = (await withoutExit(() => importModule(file))) as { default?: unknown };
  } catch (e) {
    fail(source, `cannot load it: ${e instanceof ExitCalled ? `it calls process.exit(${e.code}) while loading` : loadFailure(e)}`);
  }
  if (module.default === undefined) fail(source, 'has no default export (export default definePolicies({ … }))');
  imported.set(file, module.default);
  return module.default;
}

/** Load policy modules (paths as given, relative to the working directory) into a new registry (or
 *  into `registry`, as it is being built); a path given twice is registered once. No paths: a
 *  registry of the built-ins only. */
export async function loadPolicies(paths: readonly string[], registry: RegistryDraft = draftRegistry()): Promise<Registry> {
  const files = new Set<string>();
  for (const source of paths) {
    const file = resolve(source);
    if (files.has(file)) continue;
    files.add(file);
    const m = await defaultExport(source, file);
    try {
      registerPolicies(m, source, registry);
      registry.modules.push(source);
    } catch (e) {
      if (e instanceof PolicyLoadError) throw e;
      fail(source, e instanceof Error ? e.message : String(e));
    }
  }
  return registry;
}

// What a designer's policy modules add to the model: server re-initialize policies, reconnect
// strategies, guards and faults, as one value (`PolicyAdditions`). The built-ins live in their own
// tables (reinit.ts, reconnect.ts, client-guards.ts, faults.ts + fault-rules.ts); every lookup asks
// those first and then the additions it is given. Loading modules (`--policies`, checked by
// sim/plugins/policy-module.ts) makes a new value; nothing is process-global, and no lookup has a
// default: a caller that forgets the additions is a type error, not a run with the built-ins only.
// A machine gets them when its engine's stepper is made (models/client.ts `clientMachineFor`).
//
// This file holds names and definitions only: it imports types, never behaviour, so any model file
// can consult it without an import cycle.
import type { FaultDef } from './fault-def.ts';
import type { ModuleKnob } from './knobs.ts';
import type { GuardDef, ReconnectStrategyDef, ReinitPolicyDef } from './policy-defs.ts';

/**
 * A designer's policy failed: it threw, returned something the model cannot use, did not return
 * within its time limit, or made a run exceed the world's step budget. The exploration reports it
 * as a `policy-error` finding of the combination instead of a crash.
 */
export class PolicyError extends Error {
  override name = 'PolicyError';
  /** What happened up to the failure (set by the world that was running it). */
  history?: unknown;

  constructor(
    /** `server.reinit=streaming-floor`, `fault http-503`, `property no-late-result`… */
    readonly policy: string,
    message: string,
    readonly reason: 'threw' | 'bad-return' | 'timeout' | 'no-termination',
  ) {
    super(message);
  }
}

export interface Registered {
  name: string;
  /** The module that registered it (a path), for messages and reports. */
  source: string;
}

/** What the modules added to one knob or to the faults (`server.reinit`, `fault`…): names are unique
 *  across the built-ins and everything added. */
export class AddedDefs<T extends { name: string }> {
  private readonly entries = new Map<string, T & Registered>();

  constructor(
    /** How the CLI names this point: `server.reinit`, `client.guards`, `fault`. */
    readonly what: string,
  ) {}

  add(def: T, source: string): void {
    const clash = this.entries.get(def.name);
    if (clash) throw new Error(`${this.what} '${def.name}' is already registered by ${clash.source}`);
    this.entries.set(def.name, { ...def, source });
  }

  get(name: string): (T & Registered) | undefined {
    return this.entries.get(name);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  all(): (T & Registered)[] {
    return [...this.entries.values()];
  }
}

/**
 * What one set of policy modules adds to the model, as a value: loading modules makes a new one
 * (sim/plugins/loaded.ts) and it travels in the run's configuration (sim/plugins/run-config.ts) to
 * the world, whose engine binds it to the machines. `modules` are the paths it was loaded from, so
 * that a worker thread can load the same ones into a value of its own.
 */
export interface PolicyAdditions {
  readonly modules: readonly string[];
  readonly reinit: AddedDefs<ReinitPolicyDef>;
  readonly reconnect: AddedDefs<ReconnectStrategyDef>;
  readonly guards: AddedDefs<GuardDef>;
  readonly faults: AddedDefs<FaultDef>;
  /** Knobs of their own, by `side.knob` (models/knobs.ts `ModuleKnob`). */
  readonly knobs: AddedDefs<ModuleKnob>;
}

export function emptyAdditions(modules: readonly string[] = []): PolicyAdditions {
  return {
    modules,
    reinit: new AddedDefs<ReinitPolicyDef>('server.reinit'),
    reconnect: new AddedDefs<ReconnectStrategyDef>('client.reconnect'),
    guards: new AddedDefs<GuardDef>('client.guards'),
    faults: new AddedDefs<FaultDef>('fault'),
    knobs: new AddedDefs<ModuleKnob>('knob'),
  };
}

/** The built-ins only. Nothing ever adds to it: the loader makes a new value per set of modules. */
export const NO_ADDITIONS: PolicyAdditions = emptyAdditions();

/** The additions a run uses, as `knob=value` or `fault kind`: empty for built-ins only. */
export function additionsUsed(
  combination: { server: { reinit: string }; client: { reconnect: string; guards: readonly string[] } },
  faults: readonly string[],
  additions: PolicyAdditions,
): string[] {
  const used: string[] = [];
  if (additions.reinit.get(combination.server.reinit)) used.push(`server.reinit=${combination.server.reinit}`);
  if (additions.reconnect.get(combination.client.reconnect)) used.push(`client.reconnect=${combination.client.reconnect}`);
  for (const g of combination.client.guards) if (additions.guards.get(g)) used.push(`client.guards=${g}`);
  for (const f of faults) {
    const kind = f.includes(':') ? f.slice(0, f.indexOf(':')) : f;
    if (additions.faults.get(kind) && !used.includes(`fault ${kind}`)) used.push(`fault ${kind}`);
  }
  return used;
}

// Extension points of the model. The built-in policies, guards and faults live in their own tables
// (reinit.ts, reconnect.ts, client-guards.ts, faults.ts + fault-rules.ts); every lookup asks those first
// and then a run's `ModelExtensions`: a value made from a designer's policy modules (`--policies`,
// loaded and checked by plugins/policy-module.ts) that travels in the options of whatever runs.
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

/** One extension point: names are unique across built-ins and extensions. */
export class Extensions<T extends { name: string }> {
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
 * What one set of policy modules adds to the model, as a value (XState's `setup()` style): loading
 * modules makes a new one (plugins/loaded.ts) and it travels in the options of whatever runs
 * (world options, check, compare, explore, wire). `modules` are the paths it was loaded from, so
 * that a worker thread can load the same ones into a value of its own.
 */
export interface ModelExtensions {
  readonly modules: readonly string[];
  readonly reinit: Extensions<ReinitPolicyDef>;
  readonly reconnect: Extensions<ReconnectStrategyDef>;
  readonly guards: Extensions<GuardDef>;
  readonly faults: Extensions<FaultDef>;
  /** Knobs of their own, by `side.knob` (models/knobs.ts `ModuleKnob`). */
  readonly knobs: Extensions<ModuleKnob>;
}

export function emptyExtensions(modules: readonly string[] = []): ModelExtensions {
  return {
    modules,
    reinit: new Extensions<ReinitPolicyDef>('server.reinit'),
    reconnect: new Extensions<ReconnectStrategyDef>('client.reconnect'),
    guards: new Extensions<GuardDef>('client.guards'),
    faults: new Extensions<FaultDef>('fault'),
    knobs: new Extensions<ModuleKnob>('knob'),
  };
}

/** The built-ins only. Nothing ever adds to it: the loader makes a new value per set of modules. */
export const NO_EXTENSIONS: ModelExtensions = emptyExtensions();

// The machines' reducers look a policy up by name deep inside a step (models/server.ts, client.ts),
// and a machine's context is data (snapshotted, hashed, forked), where a value of functions cannot
// go; so whoever steps a machine (the world, the wire tier's model adapters) makes its extensions
// active around each synchronous step, and the models' lookups default to them. That is the one
// use of the scope: everything outside a step (parsing knobs, building matrices and cells, the
// mitigation finder's neighbours, the wire's fault network) takes the extensions as a value. A
// scope never spans an `await`, so runs interleaved by the event loop cannot see each other's.
let active: ModelExtensions = NO_EXTENSIONS;

/** The extensions of the step running now (the built-ins only outside any scope). */
export function activeExtensions(): ModelExtensions {
  return active;
}

/** Run the synchronous `step` with `ext` active; the previous value is restored on return and on throw. */
export function withExtensions<T>(ext: ModelExtensions | undefined, step: () => T): T {
  if ((ext ?? NO_EXTENSIONS) === active) return step();
  const previous = active;
  active = ext ?? NO_EXTENSIONS;
  try {
    const out = step();
    if (out instanceof Promise) throw new Error('internal: withExtensions around an asynchronous step');
    return out;
  } finally {
    active = previous;
  }
}

/** The extensions a run uses, as `knob=value` or `fault kind`: empty for built-ins only. */
export function extensionsUsed(
  combination: { server: { reinit: string }; client: { reconnect: string; guards: readonly string[] } },
  faults: readonly string[],
  ext: ModelExtensions = active,
): string[] {
  const used: string[] = [];
  if (ext.reinit.get(combination.server.reinit)) used.push(`server.reinit=${combination.server.reinit}`);
  if (ext.reconnect.get(combination.client.reconnect)) used.push(`client.reconnect=${combination.client.reconnect}`);
  for (const g of combination.client.guards) if (ext.guards.get(g)) used.push(`client.guards=${g}`);
  for (const f of faults) {
    const kind = f.includes(':') ? f.slice(0, f.indexOf(':')) : f;
    if (ext.faults.get(kind) && !used.includes(`fault ${kind}`)) used.push(`fault ${kind}`);
  }
  return used;
}

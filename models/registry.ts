// Extension points of the model. The built-in policies, guards and faults live in their own tables
// (reinit.ts, reconnect.ts, client-guards.ts, faults.ts + fault-rules.ts); every lookup asks those first
// and then the extensions registered here, by a designer's policy module (`--policies`, loaded and
// checked by plugins/policy-module.ts). Properties register beside the oracles, in properties/registry.ts.
//
// This file holds names and definitions only: it imports types, never behaviour, so any model file
// can consult it without an import cycle.
import type { FaultDef } from './fault-def.ts';
import type { ReconnectStrategyDef } from './reconnect.ts';
import type { GuardDef } from './client-guards.ts';
import type { ReinitPolicyDef } from './reinit.ts';

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

  /** Tests only: forget every extension. */
  clear(): void {
    this.entries.clear();
  }
}

export const EXTENSIONS = {
  reinit: new Extensions<ReinitPolicyDef>('server.reinit'),
  reconnect: new Extensions<ReconnectStrategyDef>('client.reconnect'),
  guards: new Extensions<GuardDef>('client.guards'),
  faults: new Extensions<FaultDef>('fault'),
};

/** The extensions a run uses, as `knob=value` or `fault kind`: empty for built-ins only. */
export function extensionsUsed(
  combination: { server: { reinit: string }; client: { reconnect: string; guards: readonly string[] } },
  faults: readonly string[],
): string[] {
  const used: string[] = [];
  if (EXTENSIONS.reinit.get(combination.server.reinit)) used.push(`server.reinit=${combination.server.reinit}`);
  if (EXTENSIONS.reconnect.get(combination.client.reconnect)) used.push(`client.reconnect=${combination.client.reconnect}`);
  for (const g of combination.client.guards) if (EXTENSIONS.guards.get(g)) used.push(`client.guards=${g}`);
  for (const f of faults) {
    const kind = f.includes(':') ? f.slice(0, f.indexOf(':')) : f;
    if (EXTENSIONS.faults.get(kind) && !used.includes(`fault ${kind}`)) used.push(`fault ${kind}`);
  }
  return used;
}

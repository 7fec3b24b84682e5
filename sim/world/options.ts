// How a world runs: its options (latency, deadline, step budget, engine, the policy modules'
// additions), its input (combination, workload, plan, schedule), where it writes, and the machines'
// steppers for each engine, made with the additions bound (`enginesFor`). The states and transitions
// it reaches (`Reach`) are kept beside it, shared by its forks.
import { clientMachineFor, clientReducers } from '../../models/client.ts';
import type { ClientEffect, ClientEvent } from '../../models/client-context.ts';
import type { Combination } from '../../models/policies.ts';
import { NO_ADDITIONS, type PolicyAdditions } from '../../models/additions.ts';
import { serverMachineFor, serverReducers, type ServerEffect, type ServerEvent } from '../../models/server.ts';
import type { HistoryEntry } from '../core/history.ts';
import type { FaultPlan } from '../core/plan.ts';
import type { Workload } from '../core/workload.ts';
import { compiledStepper } from './engine/compiled-step.ts';
import { xstateStepper, type Stepper } from './engine/step.ts';

export interface WorldOptions {
  /** One-way network latency, virtual ms. */
  latencyMs: number;
  /** The client's per-request deadline, virtual ms (record 003's client: 30 s). */
  deadlineMs: number;
  /** Queue events a run may process before it is stopped and marked. */
  stepBudget: number;
  /** How the machines are stepped: XState's own `transition()`, or the same statecharts compiled
   *  to a table (world/engine/compiled-step.ts; identical histories, at a fraction of the cost: docs/performance.md). */
  engine: 'compiled' | 'xstate';
  /** What policy modules add to the model (models/additions.ts; NO_ADDITIONS: the built-ins only),
   *  bound to the machines when the engine's steppers are made (`enginesFor`). */
  additions: PolicyAdditions;
}

export interface Engine {
  client: Stepper<ClientEvent, ClientEffect>;
  server: Stepper<ServerEvent, ServerEffect>;
}

/** Where a world writes its history entries: an array for a run, the oracles' monitors when exploring. */
export interface EntrySink {
  push(entry: HistoryEntry): unknown;
  /** The entry kinds it reads, if not all: the world does not build the others for it (a judged
   *  run reads no requests, responses or deliveries). */
  readonly reads?: ReadonlySet<HistoryEntry['kind']>;
}

/** The kinds a world checks before building an entry (the others are cheap, and every judge reads them). */
export interface Wants {
  request: boolean;
  response: boolean;
  deliver: boolean;
  state: boolean;
  client: boolean;
  server: boolean;
}
export const ALL_WANTED: Wants = { request: true, response: true, deliver: true, state: true, client: true, server: true };
const wantsCache = new WeakMap<ReadonlySet<string>, Wants>();

export function wantsOf(reads: ReadonlySet<HistoryEntry['kind']> | undefined): Wants {
  if (reads === undefined) return ALL_WANTED;
  let w = wantsCache.get(reads);
  if (!w) {
    w = {
      request: reads.has('request'),
      response: reads.has('response'),
      deliver: reads.has('deliver'),
      state: reads.has('state'),
      client: reads.has('client'),
      server: reads.has('server'),
    };
    wantsCache.set(reads, w);
  }
  return w;
}

/** The states and transitions a world reached, per machine (core/reach.ts). */
export { emptyReach, type Reach } from '../core/reach.ts';

export const DEFAULT_WORLD: WorldOptions = {
  latencyMs: 5,
  deadlineMs: 30_000,
  stepBudget: 10_000,
  engine: 'compiled',
  additions: NO_ADDITIONS,
};

export interface RunInput {
  combination: Combination;
  workload: Workload;
  plan: FaultPlan;
  /** Picks among events due at the same instant (see EventQueue). */
  schedule?: readonly number[];
}

/** Both machines with `additions` bound (XState's `provide`), stepped by `engine`. */
function engineOf(engine: WorldOptions['engine'], additions: PolicyAdditions): Engine {
  const client = clientMachineFor(additions);
  const server = serverMachineFor(additions);
  if (engine === 'xstate')
    return {
      client: xstateStepper<ClientEvent, ClientEffect>(client, clientReducers, additions),
      server: xstateStepper<ServerEvent, ServerEffect>(server, serverReducers, additions),
    };
  return {
    client: compiledStepper<ClientEvent, ClientEffect>(client, clientReducers, additions),
    server: compiledStepper<ServerEvent, ServerEffect>(server, serverReducers, additions),
  };
}

/** Steppers made once per additions value and engine: the one place a run's additions meet the machines. */
const engines = new WeakMap<PolicyAdditions, Partial<Record<WorldOptions['engine'], Engine>>>();
export function enginesFor(engine: WorldOptions['engine'], additions: PolicyAdditions): Engine {
  let byEngine = engines.get(additions);
  if (!byEngine) engines.set(additions, (byEngine = {}));
  return (byEngine[engine] ??= engineOf(engine, additions));
}

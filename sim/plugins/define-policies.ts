// What a designer's policy module may hold (`export default definePolicies({ … })`), as types: knobs
// of its own, server re-init policies, client reconnect strategies, guards, faults, properties (with
// their family and column head) and named cells, each hook with the view the model hands it. The
// loader (policy-module.ts) checks a module against policy-schema.ts, the same shape at run time.
import type { CapabilitySet } from '../../models/capabilities.ts';
import type { InitParams } from '../../models/client-context.ts';
import type { FaultDef } from '../../models/fault-def.ts';
import type { ClientOverrides, ServerOverrides } from '../../models/policies.ts';
import type { HandshakeView, ReconnectView, ReinitDecision, ReinitInput, ReinitView, ResponseView } from '../../models/policy-defs.ts';
import type { HistoryFrame, PropertyFamily } from '../../properties/fold.ts';
import type { CallOutcome, Reference } from '../../properties/outcomes.ts';
import type { PropertyVerdict } from '../../properties/properties.ts';
import type { History, HistoryEntry } from '../core/history.ts';

/** A knob of a module's own: every combination holds one of its values (the default where nothing sets
 *  it); `list`, the cuts, the full matrix and the reports show it, and the module's hooks read it in
 *  their `knobs` (`'server.<name>'`; a property from the history's combination). */
export interface KnobDefinition {
  values: string[];
  default: string;
  /** What it configures, in one line. */
  meaning: string;
  /** What each value does, in one line. */
  describe: Record<string, string>;
}

/** What a policy module's default export may hold. Every part is optional. */
export interface PolicyModule {
  server?: {
    knobs?: Record<string, KnobDefinition>;
    reinit?: Record<
      string,
      { describe: string; decide: (input: ReinitInput) => ReinitDecision; opening?: (clientCaps: CapabilitySet) => CapabilitySet }
    >;
  };
  client?: {
    knobs?: Record<string, KnobDefinition>;
    reconnect?: Record<
      string,
      {
        describe: string;
        afterFailure: (view: ReconnectView) => 'replay' | 'new-session';
        handshake: (view: HandshakeView) => InitParams;
      }
    >;
    guards?: Record<
      string,
      { describe: string; checkResponse?: (view: ResponseView) => string | null; checkReinitialize?: (view: ReinitView) => string | null }
    >;
  };
  /** Faults of your own, by name: the same definition the network's rule loop takes (models/fault-def.ts). */
  faults?: Record<string, Omit<FaultDef, 'name'>>;
  /** A property either judges the whole history (`check`), or is a fold (`init`, `step`, `verdict`, `key`;
   *  properties/fold.ts says what each must do), which exhaustive exploration can merge states with. */
  properties?: Record<string, CheckDefinition | FoldDefinition>;
  /** Named combinations for the default `compare` matrix: a record's vulnerable cell with some knobs
   *  changed (under that record's alphabet and the whole vocabulary), or a combination of your own. */
  cells?: { name: string; record?: '000' | '003'; server?: ServerOverrides; client?: ClientOverrides; faults?: string[] }[];
}

/** What a property says of itself besides how it judges (properties/fold.ts `PropertyInfo`). */
export interface PropertyDescription {
  holdsWhen: string;
  /** silent, invariant (the default) or recovery. */
  family?: PropertyFamily;
  /** The short head the terminal prints over its column (default: the name). */
  column?: string;
}

export interface CheckDefinition extends PropertyDescription {
  check: (history: History, outcomes: readonly CallOutcome[]) => PropertyVerdict;
}

/** A state is plain data (it is copied between calls); `step` returns the next one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface FoldDefinition<S = any> extends PropertyDescription {
  init: (reference: Reference, frame: HistoryFrame) => S;
  step: (state: S, entry: HistoryEntry) => S;
  verdict: (state: S) => PropertyVerdict;
  /** Everything the rest of the run can still change the verdict with; times relative to `now`. */
  key: (state: S, now: number) => string;
}

/** Identity, for the types: `export default definePolicies({ … })`. */
export function definePolicies<T extends PolicyModule>(module: T): T {
  return module;
}

// The library API: what a designer needs to run a combination through the machinery from their own
// code or their own vitest property tests. Its entries resolve a run's config once from what they are
// given (plugins/run-config.ts `runConfig`, every default filled in) and pass it down whole; the
// stages below take it explicitly.
import { NO_ADDITIONS, type PolicyAdditions } from './models/additions.ts';
import { expandFault as expandFaultIn, faultVocabulary, type FaultName } from './models/faults.ts';
import { combination as combinationIn, type ClientOverrides, type Combination, type ServerOverrides } from './models/policies.ts';
import { judge } from './properties/judge.ts';
import { referenceOf } from './properties/outcomes.ts';
import { propertyByName, type Property, type PropertyVerdict } from './properties/properties.ts';
import type { History } from './sim/core/history.ts';
import type { Registry } from './sim/plugins/loaded.ts';
import { runConfig } from './sim/plugins/run-config.ts';
import type { InputShape } from './sim/search/random/arbitraries.ts';
import { checkCombination, type CheckObserver } from './sim/search/random/check.ts';
import type { CheckResult } from './sim/search/random/result.ts';
import { DEFAULT_WORLD, runWorld as runWorldIn, type RunInput, type WorldOptions } from './sim/world/world.ts';
import * as arbitraries from './sim/search/random/arbitraries.ts';

export { arbitraries };
export {
  formatCombination,
  formatServer,
  formatClient,
  SERVER_KNOBS,
  CLIENT_KNOBS,
  DEFAULT_SERVER,
  DEFAULT_CLIENT,
} from './models/policies.ts';
export type { Combination, ServerPolicy, ClientPolicy, Guard } from './models/policies.ts';
export { FAULT_FAMILIES, FAULT_VOCABULARY, type FaultName } from './models/faults.ts';
export { DEFAULT_WORLD, type RunInput, type WorldOptions } from './sim/world/world.ts';
export {
  checkCombination,
  type CheckObserver,
  type CheckSpace,
  type CheckResult,
  type PropertyResult,
  type Counterexample,
} from './sim/search/random/check.ts';
export { DEFAULT_CONFIG, DEFAULT_RUNS, DEFAULT_SEED, runConfig, type RunConfig, type RunConfigInput } from './sim/plugins/run-config.ts';
export { NO_ADDITIONS, type PolicyAdditions } from './models/additions.ts';
export { sortPlan, describePlan, type FaultPlan, type PlannedFault } from './sim/core/plan.ts';
export { call, list, describeWorkload, type Workload, type WorkloadStep } from './sim/core/workload.ts';
export type { History, HistoryEntry } from './sim/core/history.ts';
export { PROPERTIES, propertyByName, type Property, type PropertyVerdict } from './properties/properties.ts';
export { judge, type Judgement } from './properties/judge.ts';
export { checkHistory, wholeHistory, type CheckProperty, type HistoryFrame, type PropertyFold } from './properties/fold.ts';
export { callOutcomes, referenceOf, OUTCOMES, type Outcome, type CallOutcome } from './properties/outcomes.ts';
export {
  exploreCombination,
  sequentialWorkloads,
  cellOptions,
  type Exploration,
  type ExhaustiveOptions,
  type Exhaustive,
} from './sim/search/exhaustive/exhaustive.ts';
export { closeWorkers, exploreInParallel, exploreMatrix, exploreCells, type PoolOptions } from './sim/search/exhaustive/parallel.ts';
export { exploreJob, type ExploreConfig, type ExploreJob, type JobResult } from './sim/search/exhaustive/explore.ts';
export { certify, withExhaustive, type Certificate } from './sim/search/certify.ts';
export { coverageReport, type MachineCoverage } from './sim/world/coverage.ts';

/** A full combination from partial overrides; unspecified knobs take their defaults. Guards are put
 *  in knob order: the built-ins', and those `additions` (a registry's) registers. */
export function combination(
  over: { server?: ServerOverrides; client?: ClientOverrides } = {},
  additions: PolicyAdditions = NO_ADDITIONS,
): Combination {
  return combinationIn(over, additions);
}

/** One `--faults` item as concrete fault names (a family: its default instances), or why it is not
 *  one; the built-in faults, and those `additions` (a registry's) registers. */
export function expandFault(item: string, additions: PolicyAdditions = NO_ADDITIONS): FaultName[] | string {
  return expandFaultIn(item, additions);
}

/** Run one workload under one fault plan, in a world of `world`'s options (the rest: DEFAULT_WORLD;
 *  the built-ins only, unless `world.additions` says otherwise), and return its history. */
export function runWorld(input: RunInput, world: Partial<WorldOptions> = {}): History {
  return runWorldIn(input, { ...DEFAULT_WORLD, ...world });
}

/**
 * Run one input under a combination (and the same workload fault-free, for reference) and return
 * one property's verdict: `{ holds, reached, why }`.
 */
export function verdictOf(
  c: Combination,
  input: Omit<RunInput, 'combination'>,
  property: string,
  world: Partial<WorldOptions> = {},
): PropertyVerdict {
  const p = propertyByName(property);
  if (!p) throw new Error(`unknown property '${property}'`);
  const history = runWorld({ ...input, combination: c }, world);
  const reference = referenceOf(runWorld({ combination: c, workload: input.workload, plan: [] }, world));
  return judge(history, reference, [p]).verdicts[p.name]!;
}

/** What `check` may be given; everything left out takes its default. */
export interface CheckOptions extends CheckObserver {
  /** The fault alphabet (default: the whole vocabulary, the registry's faults included). */
  faults?: readonly FaultName[];
  properties?: readonly Property[];
  seed?: number;
  runs?: number;
  shape?: InputShape;
  world?: Partial<Omit<WorldOptions, 'additions'>>;
  /** What policy modules add (`loadPolicies`); default: the built-ins only. */
  registry?: Registry;
}

/** The random check of one combination: the verdicts with shrunk counterexamples, as data. */
export function check(c: Combination, options: CheckOptions = {}): CheckResult {
  const { faults, shape, onProgress, onSample, ...given } = options;
  const config = runConfig(given);
  const space = { faults: faults ?? faultVocabulary(config.registry.additions), ...(shape ? { shape } : {}) };
  return checkCombination(c, config, space, { ...(onProgress ? { onProgress } : {}), ...(onSample ? { onSample } : {}) });
}

// Writing your own policies (`--policies ./my-policy.ts`): see docs/library.md.
export { definePolicies, loadPolicies, type PolicyModule } from './sim/plugins/policy-module.ts';
export { EMPTY_REGISTRY, type Registry } from './sim/plugins/loaded.ts';
export { SERVER_CAPABILITIES, type Capability, type CapabilitySet, type Transport } from './models/capabilities.ts';
export { emptyResponse, errorResponse, jsonResponse, type HttpRequest, type HttpResponse } from './models/messages.ts';
export {
  runComparison,
  checkCell,
  type Comparison,
  type ComparisonMatrix,
  type CellExecutors,
  type ComparisonObserver,
  type CellResult,
  type CellRunner,
} from './sim/compare/compare.ts';
export { buildMatrix, type MatrixCell } from './sim/compare/matrix.ts';
export { randomCheck, type Runner, type CheckInput, type RandomCheck } from './sim/search/random/check-runner.ts';
export { findingsOf, savedWorld, type Finding, type SavedWorld } from './sim/compare/findings.ts';
export { singleCell, runCell } from './sim/compare/compare.ts';
export { emptyReach, union, type Reach } from './sim/core/reach.ts';
// `Verdict` is the old name of `SearchVerdict`, kept for compatibility (the audit's is `AuditVerdict`).
export { decideVerdict, type SearchVerdict, type SearchVerdict as Verdict } from './properties/vacuity.ts';

// The resilience audit of one server (`mcp-faultsim audit`): the scenario set and its runner.
export { runAudit, serverRevisions, type AuditResult, type ScenarioResult } from './sim/audit/server/runner.ts';
export { SCENARIOS, type Scenario } from './sim/audit/scenarios.ts';
export { VERDICTS, type AuditVerdict } from './sim/audit/verdict.ts';
// The audit of a client process (`audit --client-cmd`): its scenarios, and those that do not apply with why.
export { runClientAudit, type ClientAuditOptions } from './sim/audit/client/runner.ts';
export { CLIENT_SCENARIOS, NOT_FOR_CLIENTS, type ClientScenario } from './sim/audit/client/scenarios.ts';

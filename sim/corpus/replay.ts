// Replaying a saved counterexample: run its exact input again and say whether everything it
// recorded happens again: the same history step for step, the same call outcomes, the same
// properties violated for the same reasons (or the same policy error).
import { faultFamily } from '../../models/faults.ts';
import { knobValues } from '../../models/policies.ts';
import { PolicyError } from '../../models/additions.ts';
import { callOutcomes, referenceOf } from '../../properties/outcomes.ts';
import { checkHistory } from '../../properties/fold.ts';
import { propertyByName } from '../../properties/properties.ts';
import type { Registry } from '../plugins/loaded.ts';
import { runConfig } from '../plugins/run-config.ts';
import { BadCounterexample, type CounterexampleFile } from './counterexample-file.ts';
import type { HistoryEntry } from '../core/history.ts';
import { runWorld } from '../world/world.ts';

export interface ReplayResult {
  reproduced: boolean;
  history: HistoryEntry[];
  /** One line per difference from what the file expected; empty when reproduced. */
  differences: string[];
  /** What each expected property says now. */
  verdicts: { property: string; expected: string; actual: string }[];
}

/** Refuse a file naming a knob value, fault or property the loaded modules and the built-ins do not know. */
export function checkKnown(f: CounterexampleFile, registry: Registry): void {
  const { additions, properties } = registry;
  const hint = f.policies.length ? ` (it was saved with --policies ${f.policies.join(',')})` : '';
  const known = (side: 'server' | 'client', knob: string, value: string) => {
    if (!knobValues(side, knob, additions).includes(value)) throw new BadCounterexample(`unknown ${side}.${knob} value '${value}'${hint}`);
  };
  // A set knob (guards) holds a list of values; a knob a module declared, one.
  for (const side of ['server', 'client'] as const)
    for (const [k, v] of Object.entries(f.combination[side]))
      for (const value of Array.isArray(v) ? v : [v]) known(side, k, value as string);
  for (const { fault } of f.plan) {
    try {
      faultFamily(fault, additions);
    } catch {
      throw new BadCounterexample(`unknown fault '${fault}'${hint}`);
    }
  }
  for (const { property } of f.expected.properties) {
    if (property !== 'policy-error' && !propertyByName(property, properties))
      throw new BadCounterexample(`unknown property '${property}'${hint}`);
  }
}

function firstDifference(expected: HistoryEntry[], actual: HistoryEntry[]): string | null {
  for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
    const e = JSON.stringify(expected[i] ?? null);
    const a = JSON.stringify(actual[i] ?? null);
    if (e !== a) return `history differs at step ${i + 1} of ${expected.length} expected (${actual.length} now): expected ${e}, got ${a}`;
  }
  return null;
}

/** Replay `f` under `registry` (the modules it names loaded; EMPTY_REGISTRY: the built-ins only), in
 *  the world it was saved with. */
export function replay(f: CounterexampleFile, registry: Registry): ReplayResult {
  checkKnown(f, registry);
  const input = { combination: f.combination, workload: f.workload, plan: f.plan, schedule: f.schedule };
  const { world } = runConfig({ registry, world: f.world });
  const differences: string[] = [];
  const verdicts: ReplayResult['verdicts'] = [];
  let history: HistoryEntry[];
  let error: PolicyError | null = null;
  try {
    history = runWorld(input, world).entries;
  } catch (e) {
    if (!(e instanceof PolicyError)) throw e;
    error = e;
    history = (e.history as { entries?: HistoryEntry[] } | undefined)?.entries ?? [];
  }
  if (f.kind === 'policy-error') {
    const expected = f.expected.properties[0]?.why ?? '';
    const actual = error ? `${error.policy}: ${error.message}` : 'the run finished without a policy error';
    verdicts.push({ property: 'policy-error', expected, actual });
    if (actual !== expected) differences.push(`policy-error: expected "${expected}", got "${actual}"`);
  } else if (error) {
    differences.push(`the run failed with a policy error: ${error.policy}: ${error.message}`);
  } else {
    const h = { version: 0, combination: f.combination, workload: f.workload, plan: f.plan, schedule: f.schedule, entries: history };
    const reference = referenceOf(runWorld({ ...input, plan: [], schedule: [] }, world));
    const outcomes = callOutcomes(h, reference);
    for (const { property, why } of f.expected.properties) {
      const v = checkHistory(propertyByName(property, registry.properties)!, h, reference);
      const actual = v.holds ? 'holds' : (v.why ?? '');
      verdicts.push({ property, expected: why, actual });
      if (actual !== why) differences.push(`${property}: expected "violated: ${why}", got "${v.holds ? 'holds' : `violated: ${actual}`}"`);
    }
    const now = JSON.stringify(outcomes.map((o) => ({ callId: o.callId, outcome: o.outcome })));
    if (now !== JSON.stringify(f.expected.outcomes))
      differences.push(`call outcomes: expected ${JSON.stringify(f.expected.outcomes)}, got ${now}`);
  }
  const step = firstDifference(f.expected.history, history);
  if (step) differences.push(step);
  return { reproduced: differences.length === 0, history, differences, verdicts };
}

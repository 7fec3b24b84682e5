// `check` on the wire: the one check runner (search/random/check-runner.ts) over `runWire`,
// asynchronous. Inputs are drawn by the same arbitraries and seed as the model tier's, so a seed
// draws the same plans; the schedule (the model's event-queue tie-breaks) is dropped, real code
// orders its own events. The result is the model tier's CheckResult, plus `wire` (what stood on
// each side) and `skipped` (faults the server could not take part in, with why). Counterexamples
// carry their history: real code ran, and the model world would tell another story.
import { shapeResults } from '../core/result-shape.ts';
import { FAULT_VOCABULARY, type FaultName } from '../../models/faults.ts';
import { PROPERTIES, type Property } from '../../properties/properties.ts';
import { sortedStats } from '../../properties/stats.ts';
import type { InputShape } from '../search/random/arbitraries.ts';
import { DEFAULT_RUNS, DEFAULT_SEED } from '../search/random/check.ts';
import { randomCheck, type CheckInput, type Runner } from '../search/random/check-runner.ts';
import type { CheckResult } from '../search/random/result.ts';
import type { History } from '../core/history.ts';
import { describeSides, modelCombination, type WireSetup, type WireSides } from './setup.ts';
import { runWire, type WireOptions } from './world.ts';

export interface WireCheckOptions {
  faults?: readonly FaultName[];
  properties?: readonly Property[];
  seed?: number;
  runs?: number;
  shape?: InputShape;
  wire?: Partial<WireOptions>;
  /** Compare results by their shape, not their text (core/result-shape.ts): for a stateful server. */
  byShape?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface WireCheckResult extends CheckResult {
  wire: WireSides;
  /** Faults that fired but could not act on this server, by name, with the reason. */
  skipped: Record<string, string>;
}

/** The wire tier as a check runner: asynchronous, without a schedule, not replayable by the model. */
export function wireRunner(setup: WireSetup, options: Partial<WireOptions> = {}, byShape = false): Runner {
  const run = byShape
    ? async (input: CheckInput) => shapeResults(await runWire(setup, input, options))
    : (input: CheckInput) => runWire(setup, input, options);
  return { run, ignoresSchedule: true };
}

function skippedOf(h: History, into: Record<string, string>): void {
  for (const e of h.entries)
    if (e.kind === 'fault' && !e.applied && e.detail.startsWith('skipped: ')) into[e.fault] ??= e.detail.slice('skipped: '.length);
}

export async function wireCheck(setup: WireSetup, options: WireCheckOptions = {}): Promise<WireCheckResult> {
  const { faults = FAULT_VOCABULARY, properties = PROPERTIES, seed = DEFAULT_SEED, runs = DEFAULT_RUNS } = options;
  const shape: InputShape = { ...options.shape, plan: { ...options.shape?.plan, faults } };
  const skipped: Record<string, string> = {};
  const { tally, counterexamples } = await randomCheck(
    wireRunner(setup, options.wire, options.byShape),
    { properties, seed, runs },
    shape,
    {
      onSample: (j) => skippedOf(j.history!, skipped), // real code keeps its history: no runInto
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    },
  );
  const results = properties.map((p) => {
    const counterexample = counterexamples.get(p.name);
    return tally.result(p, counterexample ? { counterexample } : null);
  });
  // Machine coverage is a model-tier measure: real code on either side has no statechart to cover.
  return {
    combination: modelCombination(setup),
    wire: describeSides(setup),
    seed,
    runs,
    faults,
    results,
    stats: sortedStats(tally.stats.toStats()),
    coverage: [],
    skipped,
  };
}

// Running a comparison: every cell of a matrix through every property, under one run config, by a
// cell runner that can be swapped (the default runs `check`; another tier may add its own fields to
// each result, which the reports carry along). A policy that fails inside a cell becomes that
// cell's `policy-error` finding and the matrix goes on (run-cell.ts). How the cells are spread over
// threads and stopped is cell-scheduler.ts; `check` runs its one combination by the same path
// (`singleCell`, `runCell`, `findingsOf`).
import type { RunConfig } from '../plugins/run-config.ts';
import { TOOL } from '../core/tool.ts';
import { Annotator } from './annotator.ts';
import type { CellResult } from './cell-result.ts';
import type { ReportedFinding } from './cell-runner.ts';
import { CellScheduler, type CellExecutors, type ComparisonObserver } from './cell-scheduler.ts';
import type { Cut, MatrixCell, MatrixKind } from './matrix.ts';
import { migrationRows, type MigrationRow } from './migration.ts';
import { recommend, type Recommendation } from './recommendation.ts';
import { numberedCauseGroups, type NumberedCauseGroup } from './causes.ts';
import { fixesByGroup, type GroupFixes } from './fixes.ts';

export { CELL_CLASSES, classify, type CellClass, type CellResult } from './cell-result.ts';
export { Annotator } from './annotator.ts';
export { checkCell, type RunnerResult } from './check-cell.ts';
export type { CellRunner, Progress, ReportedFinding } from './cell-runner.ts';
export { CellStopped, type CellExecutors, type ComparisonObserver } from './cell-scheduler.ts';
export { runCell, singleCell, type CellHooks } from './run-cell.ts';
export { numberedCauseGroups, type CauseGroup, type NumberedCauseGroup } from './causes.ts';
export { recommend, type Recommendation, type RecommendationScope, type Unfixed } from './recommendation.ts';

export interface Comparison {
  format: 'mcp-faultsim/compare';
  version: 1;
  tool: { name: string; version: string };
  seed: number;
  runs: number;
  properties: string[];
  matrix: { kind: MatrixKind; cut: Cut; size: number };
  /** The policy modules loaded, as given on the command line. */
  policies: string[];
  /** Present on a shard's result only; a merge of all shards has none, like an unsharded run. */
  shard?: { index: number; count: number };
  interrupted: boolean;
  /** The designer's answer: which combinations to choose, what they survive, what no combination
   *  fixes (compare/recommendation.ts), computed over these cells and findings. */
  recommendation: Recommendation;
  cells: CellResult[];
  findings: ReportedFinding[];
  /** The findings grouped by cause (same minimal plan, same mechanism), labelled G1, G2, … most cells first. */
  causes: NumberedCauseGroup[];
  /** Per silent cause group the finder worked on, its fixes ranked as the reports show them (compare/fixes.ts). */
  fixes: GroupFixes[];
  /** `--matrix migration`: what moving from 2025-11-25 to 2026-07-28 does, per seed cell (compare/migration.ts). */
  migration?: MigrationRow[];
  /** Wall-clock figures: the only part of a report that differs between identical runs. */
  timing?: Record<string, unknown>;
}

/** The cells a comparison runs, and the matrix they come from as its report names it. */
export interface ComparisonMatrix {
  cells: readonly MatrixCell[];
  kind: MatrixKind;
  cut: Cut;
  /** The whole matrix's size (a shard runs only some of its cells). */
  size: number;
  shard?: { index: number; count: number };
}

/** Run `matrix`'s cells under `config`, where `executors` say (default: each here, in turn), watched
 *  by `observer`; findings come annotated with their causes and mitigations. */
export async function runComparison(
  matrix: ComparisonMatrix,
  config: RunConfig,
  executors: CellExecutors = {},
  observer: ComparisonObserver = {},
): Promise<Comparison> {
  const { cells, kind, cut, size, shard } = matrix;
  const annotator = new Annotator(cells, config);
  const { results, interrupted, findings } = await new CellScheduler(cells, config, annotator, executors, observer).run();
  observer.onSearchCounts?.({ ...annotator.searches.counts, runsHere: { ...annotator.runCounts } });
  const matrixOf = { kind, cut, size };
  const causes = numberedCauseGroups(findings);
  const answer = recommend({ matrix: matrixOf, seed: config.seed, runs: config.runs, interrupted, cells: results, findings, causes });
  return {
    format: 'mcp-faultsim/compare',
    version: 1,
    tool: TOOL,
    seed: config.seed,
    runs: config.runs,
    properties: config.properties.map((p) => p.name),
    matrix: matrixOf,
    policies: [...config.registry.modules],
    ...(shard ? { shard } : {}),
    interrupted,
    recommendation: answer,
    cells: results,
    findings,
    causes,
    fixes: fixesByGroup(findings, causes),
    ...(kind === 'migration' ? { migration: migrationRows(results) } : {}),
  };
}

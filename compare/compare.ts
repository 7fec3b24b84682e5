// Running a comparison: every cell of a matrix through every property, one cell at a time, by a
// cell runner that can be swapped (the default runs `check`; another tier may add its own fields to
// each result, which the reports carry along). A policy that fails inside a cell becomes that
// cell's `policy-error` finding and the matrix goes on. Between cells the caller may stop the run
// (SIGINT, a time limit): what finished is returned, marked interrupted.
import { PolicyError } from '../models/registry.ts';
import type { Property } from '../properties/properties.ts';
import { allProperties } from '../properties/registry.ts';
import { check, type CheckResult } from '../search/random/check.ts';
import { coverageReport } from '../world/coverage.ts';
import { findingsOf, type Finding } from './findings.ts';
import type { Cut, MatrixCell, MatrixKind } from './matrix.ts';
import { policyErrorReport, type PolicyErrorReport } from '../search/random/policy-errors.ts';
import { emptyStats } from '../properties/stats.ts';
import { TOOL } from '../core/tool.ts';
import { causeOf, type Cause } from './causes.ts';
import { isSilentFinding, MITIGATION_PROPERTIES, mitigationsOf, type Mitigation } from './mitigations.ts';

/** What a designer reads first: how the agent's calls fared in this cell. */
export type CellClass = 'policy-error' | 'silent' | 'loud, never recovers' | 'loud, recovers' | 'clean';
export const CELL_CLASSES: readonly CellClass[] = ['policy-error', 'silent', 'loud, never recovers', 'loud, recovers', 'clean'];

/** A finding as the reports carry it: with its cause, and the mitigations found for a silent one. */
export type ReportedFinding = Finding & { cause?: Cause; mitigations?: Mitigation[] };

export interface RunSettings {
  seed: number;
  runs: number;
  properties: readonly Property[];
  onProgress?: (done: number, total: number) => void;
}

/** Runs one cell. Its result may carry extra fields (the reports show them as data). */
export type CellRunner = (cell: MatrixCell, settings: RunSettings) => CheckResult | Promise<CheckResult>;

export interface CellResult extends CheckResult {
  index: number;
  id: string;
  name: string;
  record: MatrixCell['record'];
  role: MatrixCell['role'];
  alphabet: MatrixCell['alphabet'];
  class: CellClass;
  policyError: PolicyErrorReport | null;
}

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
  cells: CellResult[];
  findings: ReportedFinding[];
  /** Wall-clock figures: the only part of a report that differs between identical runs. */
  timing?: Record<string, unknown>;
}

export const checkCell: CellRunner = (cell, s) =>
  check(cell.combination, { faults: cell.faults, seed: s.seed, runs: s.runs, shape: cell.shape, properties: s.properties, ...(s.onProgress ? { onProgress: s.onProgress } : {}) });

export function classify(r: CheckResult, policyError: PolicyErrorReport | null): CellClass {
  if (policyError) return 'policy-error';
  const o = r.results[0]?.outcomes;
  if (!o) return 'clean';
  if (o['silent-empty'] + o['silent-hang'] > 0) return 'silent';
  if (o.error === 0) return 'clean';
  return r.results.find((p) => p.property === 'recovers')?.verdict === 'violated' ? 'loud, never recovers' : 'loud, recovers';
}

/** Run one cell; a policy's failure becomes its finding instead of an exception. */
export async function runCell(cell: MatrixCell, runner: CellRunner, settings: RunSettings): Promise<CellResult> {
  let result: CheckResult;
  let policyError: PolicyErrorReport | null = null;
  try {
    result = await runner(cell, settings);
  } catch (e) {
    if (!(e instanceof PolicyError)) throw e;
    policyError = policyErrorReport(e, { ...cell, seed: settings.seed, runs: settings.runs, properties: settings.properties });
    const none = { states: [], transitions: [] };
    result = { combination: cell.combination, seed: settings.seed, runs: settings.runs, faults: cell.faults, results: [], stats: emptyStats(), coverage: coverageReport({ client: none, server: none }) };
  }
  const { index, id, name, record, role, alphabet } = cell;
  return { index, id, name, record, role, alphabet, class: classify(result, policyError), ...result, policyError };
}

export interface ComparisonOptions {
  seed: number;
  runs: number;
  kind: MatrixKind;
  cut: Cut;
  /** The whole matrix's size (a shard runs only some of its cells). */
  size: number;
  policies: string[];
  shard?: { index: number; count: number };
  runner?: CellRunner;
  properties?: readonly Property[];
  /** Called before each cell; true stops the comparison there (it is then marked interrupted). */
  beforeCell?: (done: number, total: number, next: MatrixCell) => boolean | Promise<boolean>;
  /** Called as a cell's random runs finish (done, total); true stops the comparison inside the cell:
   *  that cell is dropped and the comparison is marked interrupted. */
  duringCell?: (done: number, total: number) => boolean;
}

/** Thrown out of a cell's run loop (by `duringCell`, or a runner on another thread) to stop the comparison inside it. */
export class CellStopped extends Error {}

export async function runComparison(cells: readonly MatrixCell[], o: ComparisonOptions): Promise<Comparison> {
  const during = o.duringCell;
  const onProgress = during
    ? (done: number, total: number) => {
        if (during(done, total)) throw new CellStopped();
      }
    : undefined;
  const settings: RunSettings = { seed: o.seed, runs: o.runs, properties: o.properties ?? allProperties(), ...(onProgress ? { onProgress } : {}) };
  const results: CellResult[] = [];
  let interrupted = false;
  for (const [i, cell] of cells.entries()) {
    if (o.beforeCell && (await o.beforeCell(i, cells.length, cell))) {
      interrupted = true;
      break;
    }
    try {
      results.push(await runCell(cell, o.runner ?? checkCell, settings));
    } catch (e) {
      if (!(e instanceof CellStopped)) throw e;
      interrupted = true;
      break;
    }
  }
  return {
    format: 'mcp-faultsim/compare',
    version: 1,
    tool: TOOL,
    seed: o.seed,
    runs: o.runs,
    properties: settings.properties.map((p) => p.name),
    matrix: { kind: o.kind, cut: o.cut, size: o.size },
    policies: o.policies,
    ...(o.shard ? { shard: o.shard } : {}),
    interrupted,
    cells: results,
    findings: annotate(results.flatMap(findingsOf), cells, settings),
  };
}

/** Each finding with its cause (compare/causes.ts) and, when silent on a model cell, the single knob
 *  changes that make it hold (compare/mitigations.ts), placed before its long history. */
export function annotate(findings: readonly Finding[], cells: readonly MatrixCell[], s: RunSettings): ReportedFinding[] {
  const byId = new Map(cells.map((c) => [c.id, c]));
  const cache = new Map();
  // The finder reads outcomes and recovery only: judging the other properties would cost without telling.
  const properties = s.properties.filter((p) => MITIGATION_PROPERTIES.includes(p.name));
  return findings.map(({ history, ...f }) => {
    const cell = byId.get(f.cell);
    const cause = causeOf({ ...f, history });
    const mitigations =
      cell && !cell.wire && isSilentFinding({ ...f, history })
        ? mitigationsOf({ ...f, history }, { seed: s.seed, runs: s.runs, properties, faults: cell.faults, shape: cell.shape, cache })
        : undefined;
    return { ...f, cause, ...(mitigations ? { mitigations } : {}), history };
  });
}

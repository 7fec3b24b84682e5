// What runs one cell — the cell runner's type — and a finding as the reports carry it: the types
// compare.ts shares with the stages it drives (run-cell.ts, check-cell.ts, annotator.ts, the cell
// threads), kept below them all so that none of them imports compare.ts back. A cell runs under the
// run's config (plugins/run-config.ts), whole; what watches it is a callback beside it.
import type { CheckResult } from '../search/random/result.ts';
import type { RunConfig } from '../plugins/run-config.ts';
import type { Cause } from './causes.ts';
import type { Finding } from './findings.ts';
import type { MatrixCell } from './matrix.ts';
import type { FoundMitigations } from './mitigation-finder.ts';

/** A finding as the reports carry it: with its cause, and what the mitigation finder found for a
 *  silent one (its ranked single changes, those that would break the fault-free run, its pair search). */
export type ReportedFinding = Finding & { cause?: Cause } & Partial<FoundMitigations>;

/** Called as a cell's random runs finish (done, total); it may throw to stop the cell (compare.ts). */
export type Progress = (done: number, total: number) => void;

/** Runs one cell under the run's config. Its result may carry extra fields (the reports show them as data). */
export type CellRunner = (cell: MatrixCell, config: RunConfig, onProgress?: Progress) => CheckResult | Promise<CheckResult>;

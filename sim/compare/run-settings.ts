// What runs one cell — its settings and the cell runner's type — and a finding as the reports carry
// it: the types compare.ts shares with the stages it drives (check-cell.ts, annotator.ts), kept below
// them all so that none of them imports compare.ts back.
import type { Property } from '../../properties/properties.ts';
import type { CheckResult } from '../search/random/result.ts';
import type { WorldOptions } from '../world/world.ts';
import type { Cause } from './causes.ts';
import type { Finding } from './findings.ts';
import type { MatrixCell } from './matrix.ts';
import type { FoundMitigations } from './mitigation-finder.ts';

/** A finding as the reports carry it: with its cause, and what the mitigation finder found for a
 *  silent one (its ranked single changes, those that would break the fault-free run, its pair search). */
export type ReportedFinding = Finding & { cause?: Cause } & Partial<FoundMitigations>;

export interface RunSettings {
  seed: number;
  runs: number;
  properties: readonly Property[];
  /** The model world's options for every run of the cell (default: DEFAULT_WORLD); findings keep them. */
  world?: Partial<WorldOptions>;
  onProgress?: (done: number, total: number) => void;
}

/** Runs one cell. Its result may carry extra fields (the reports show them as data). */
export type CellRunner = (cell: MatrixCell, settings: RunSettings) => CheckResult | Promise<CheckResult>;

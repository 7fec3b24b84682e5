// The findings of a comparison's cells as the reports carry them: each with its cause and, when
// silent, the mitigations the finder found (compare/mitigations.ts), the finder's searches shared by
// the whole comparison (compare/mitigation-searches.ts), and the cells that answer searches with
// their own runs.
import type { MatrixCell } from './matrix.ts';
import type { RunConfig } from '../plugins/run-config.ts';
import { shapeKey } from '../search/random/arbitraries.ts';
import { checkShape } from '../search/random/check.ts';
import { causeOf } from './causes.ts';
import { withHistoryOf, type Finding } from './findings.ts';
import { MitigationSearches } from './mitigation-searches.ts';
import { isSilentFinding, MITIGATION_PROPERTIES } from './mitigations.ts';
import { findMitigations } from './mitigation-finder.ts';
import {
  rememberRuns,
  searchedCombination,
  searchRuns,
  searchShape,
  searchSteps,
  type FinderRunCounts,
  type MitigationContext,
} from './mitigation-runs.ts';
import type { ReportedFinding } from './cell-runner.ts';

/** Each finding with its cause (compare/causes.ts) and, when silent on a model cell, the single knob
 *  changes that make it hold (compare/mitigations.ts), placed before its long history. One per
 *  comparison: its searches and judges are shared by every finding. */
export class Annotator {
  private readonly byId: Map<string, MatrixCell>;
  private readonly judges = new Map();
  private readonly draws = new Map();
  /** This thread's finder runs (mitigation-runs.ts `markFor`): marks asked, runs judged, runs recorded. */
  readonly runCounts: FinderRunCounts = { asked: 0, judged: 0, recorded: 0 };
  readonly searches: MitigationSearches;
  /** The run's config as the finder runs it: it reads outcomes and recovery only (judging the other
   *  properties would cost without telling). */
  private readonly finder: RunConfig;

  constructor(cells: readonly MatrixCell[], config: RunConfig) {
    this.byId = new Map(cells.map((c) => [c.id, c]));
    this.finder = { ...config, properties: config.properties.filter((p) => MITIGATION_PROPERTIES.includes(p.name)) };
    this.searches = new MitigationSearches(this.finder, (spec, sampled) => searchSteps(spec.combination, this.context(spec), sampled));
    for (const cell of cells) {
      const key = this.offerKey(cell);
      if (key) this.searches.expect(key);
    }
  }

  /** The search whose runs `cell`'s first runs are, if any: a model cell that draws its inputs from the
   *  shape a search of its combination under its alphabet draws from (`check` adds idempotent calls
   *  for a client that tells them apart; the finder does not). */
  private offerKey(cell: MatrixCell): string | null {
    if (cell.wire) return null;
    const searched = shapeKey(searchShape(cell.faults, cell.shape));
    if (shapeKey(checkShape(cell.combination, cell.faults, cell.shape)) !== searched) return null;
    // Its runs are those of the combination a search of it runs (mitigations.ts `searchedCombination`).
    const combination = searchedCombination(cell.combination, cell.shape);
    return MitigationSearches.keyOf({ combination, faults: cell.faults, shape: cell.shape });
  }

  /** `cell` ran, and these are the flags of its first runs (and the knobs each read, if known): they
   *  answer the search of its combination, and any run of another search that read the same. */
  offer(cell: MatrixCell, sampled: Uint8Array, reads?: Uint16Array): void {
    const key = this.offerKey(cell);
    if (!key || sampled.length !== searchRuns(this.finder.runs)) return;
    if (reads) rememberRuns(cell.combination, this.context(cell), sampled, reads);
    this.searches.offer(key, sampled);
  }

  private context(where: { faults: MatrixCell['faults']; shape: MatrixCell['shape'] }): Omit<MitigationContext, 'cache'> {
    return {
      config: this.finder,
      faults: where.faults,
      shape: where.shape,
      judges: this.judges,
      draws: this.draws,
      counts: this.runCounts,
    };
  }

  async annotate(findings: readonly Finding[]): Promise<ReportedFinding[]> {
    const out: Promise<ReportedFinding>[] = findings.map(async (found) => {
      const { history, ...f } = found;
      const cell = this.byId.get(f.cell);
      const cause = causeOf({ ...f, history });
      const fixes =
        cell && !cell.wire && isSilentFinding({ ...f, history })
          ? await findMitigations({ ...f, history }, this.context(cell), this.searches)
          : undefined;
      // The history as the finding has it (one run again when read: compare/findings.ts), not this copy.
      return withHistoryOf({ ...f, cause, ...fixes }, found);
    });
    return Promise.all(out);
  }
}

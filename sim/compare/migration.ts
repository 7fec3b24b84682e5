// The migration view (`compare --matrix migration`): per seed cell and alphabet, which silent
// failures moving from 2025-11-25 to 2026-07-28 removes, keeps and adds, each with the shrunk,
// certified plan that shows it, and how the mixed pairs of a migration fare. Computed from the
// cells' results alone, so a merge of shards gives the same table as one run.
import type { FaultPlan } from '../core/plan.ts';
import type { Workload } from '../core/workload.ts';
import type { CellClass, CellResult } from './cell-result.ts';
import type { RevisionPair } from './matrix.ts';
import { propertyNames } from '../../properties/properties.ts';

/** The properties whose violation is a silent failure the agent never hears of (the model's tool has a
 *  side effect, so at-most-once is one of them). */
export const SILENT_PROPERTIES: readonly string[] = propertyNames(['silent']);

export interface MigrationPlan {
  /** The finding that holds it (`<cell id>--<property>` as in the reports). */
  finding: string;
  faults: FaultPlan;
  workload: Workload;
  why: string;
  minimal: boolean | null;
}

export interface MigrationChange {
  property: string;
  change: 'removed' | 'kept' | 'added';
  /** The counterexample under 2025-11-25 (removed, kept) and under 2026-07-28 (kept, added). */
  legacy: MigrationPlan | null;
  modern: MigrationPlan | null;
}

export interface MigrationRow {
  cell: string;
  alphabet: CellResult['alphabet'];
  /** Each revision pair's class and the silent properties violated in it; where the two revisions
   *  cannot meet (`broken without faults`: no fault was tried), why. Such a pair is a failure mode of
   *  neither revision: only the two revisions' own pairs are compared. */
  pairs: { pair: RevisionPair['name']; id: string; class: CellClass; silent: string[]; broken?: string }[];
  changes: MigrationChange[];
}

function planOf(cell: CellResult, property: string): MigrationPlan | null {
  const r = cell.results.find((p) => p.property === property);
  if (!r || r.verdict !== 'violated' || !r.counterexample) return null;
  const { faults, workload, why } = r.counterexample;
  return { finding: `${cell.id}--${property}`, faults, workload, why, minimal: r.minimal ?? null };
}

const silentOf = (cell: CellResult) =>
  cell.results.filter((r) => r.verdict === 'violated' && SILENT_PROPERTIES.includes(r.property)).map((r) => r.property);

/** The migration rows of a comparison's cells (empty when no cell is a migration cell). */
export function migrationRows(cells: readonly CellResult[]): MigrationRow[] {
  const groups = new Map<string, CellResult[]>();
  for (const c of cells) {
    if (!c.migration) continue;
    const key = `${c.migration.cell}\n${c.alphabet}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups.values()].map((group) => {
    const by = (pair: RevisionPair['name']) => group.find((c) => c.migration!.pair === pair);
    const legacy = by('2025-11-25');
    const modern = by('2026-07-28');
    const changes: MigrationChange[] = [];
    for (const property of SILENT_PROPERTIES) {
      const before = legacy ? planOf(legacy, property) : null;
      const after = modern ? planOf(modern, property) : null;
      if (!before && !after) continue;
      changes.push({ property, change: before && after ? 'kept' : before ? 'removed' : 'added', legacy: before, modern: after });
    }
    return {
      cell: group[0]!.migration!.cell,
      alphabet: group[0]!.alphabet,
      pairs: group.map((c) => ({
        pair: c.migration!.pair,
        id: c.id,
        class: c.class,
        silent: silentOf(c),
        ...(c.brokenWithoutFaults ? { broken: c.brokenWithoutFaults.reason } : {}),
      })),
      changes,
    };
  });
}

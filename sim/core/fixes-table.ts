// The "what changes what" table, worked out once for the comparison (compare/fixes.ts: compare.json's
// `fixes`) and for the reports that draw it (reports/compare-causes.ts): per knob change (and per pair
// the pair search found), how many of each silent cause group's findings it makes hold and the worst
// way it holds; and a group's fixes ranked: clean first, then loud and recovers, then loud and never
// recovers; more findings first; a single change before a pair. Here, in core/, because both stages
// read it and reports import no code of the simulation's stages. Read from the findings alone.

/** How a changed combination fared on a finding's runs. */
export type Fared = 'clean' | 'loud, recovers' | 'loud, never recovers' | 'silent' | 'policy-error';

/** How a change holds, best first. */
export const FARED_ORDER: readonly Fared[] = ['clean', 'loud, recovers', 'loud, never recovers', 'policy-error', 'silent'];

/** What the table reads of one change tried on a finding (compare/mitigations.ts `Mitigation`). */
export interface TriedChange {
  change: string;
  replay: Fared;
  search: { fared: Fared } | null;
  holds: boolean;
}

/** What the table reads of a finding: the single changes tried, and the pairs found (compare/mitigation-pairs.ts). */
export interface FindingChanges {
  id: string;
  mitigations?: readonly TriedChange[];
  pairs?: { found: readonly TriedChange[] };
}

/** What the table reads of a cause group (compare/causes.ts). */
export interface ChangeGroup {
  label: string;
  silent: boolean;
  findings: readonly string[];
}

/** How a change fared overall: the worse of its replay and its search (runs silent by another cause left out). */
export function faredOf(m: TriedChange): Fared {
  return [m.replay, m.search?.fared ?? m.replay].sort((a, b) => FARED_ORDER.indexOf(b) - FARED_ORDER.indexOf(a))[0]!;
}

export interface ChangeRow {
  /** A single change, or a pair (`a + b`, from the pair search: compare/mitigation-pairs.ts). */
  change: string;
  pair: boolean;
  /** Per silent group (by label) where it was tried: findings this change makes hold, of those with
   *  mitigations, and the worst way it holds (null: it holds none of them). */
  cells: Map<string, { holds: number; of: number; fared: Fared | null }>;
  /** Silent findings it makes hold, over all groups. */
  total: number;
}

/** The "what changes what" table: every change (and every pair the pair search found) that makes some
 *  silent finding of `groups` hold, most first; with the silent groups the finder worked on. */
export function whatChangesWhat<G extends ChangeGroup>(
  findings: readonly FindingChanges[],
  groups: readonly G[],
): { groups: G[]; rows: ChangeRow[] } {
  // By id, not by a search of the list per id: a full matrix has thousands of findings.
  const byId = new Map(findings.map((f) => [f.id, f]));
  const silent = groups.filter((g) => g.silent && g.findings.some((id) => byId.get(id)?.mitigations));
  const rows = new Map<string, ChangeRow>();
  const count = (g: G, of: number, m: TriedChange, pair: boolean) => {
    let row = rows.get(m.change);
    if (!row) rows.set(m.change, (row = { change: m.change, pair, cells: new Map(), total: 0 }));
    const cell = row.cells.get(g.label) ?? { holds: 0, of, fared: null };
    if (m.holds) {
      cell.holds++;
      row.total++;
      const fared = faredOf(m);
      if (cell.fared === null || FARED_ORDER.indexOf(fared) > FARED_ORDER.indexOf(cell.fared)) cell.fared = fared;
    }
    row.cells.set(g.label, cell);
  };
  for (const g of silent) {
    const fs = g.findings.map((id) => byId.get(id)!).filter((f) => f.mitigations);
    for (const f of fs) {
      for (const m of f.mitigations!) count(g, fs.length, m, false);
      for (const m of f.pairs?.found ?? []) count(g, fs.length, m, true);
    }
  }
  const kept = [...rows.values()].filter((r) => r.total > 0).sort((a, b) => b.total - a.total || a.change.localeCompare(b.change));
  return { groups: silent, rows: kept };
}

/** One of a group's fixes. */
export interface RankedFix {
  change: string;
  pair: boolean;
  /** Of the group's findings the finder searched, how many it makes hold. */
  holds: number;
  of: number;
  fared: Fared;
}

/** A group's fixes, ranked: those that hold clean first, then loud and recovers, then loud and never
 *  recovers; within a rank, the one that holds for the most of the group's findings; a single change
 *  before a pair; then by name. */
export function rankedFixes(rows: readonly ChangeRow[], g: Pick<ChangeGroup, 'label'>): RankedFix[] {
  return rows
    .flatMap((r) => {
      const x = r.cells.get(g.label);
      return x && x.holds > 0 ? [{ change: r.change, pair: r.pair, holds: x.holds, of: x.of, fared: x.fared! }] : [];
    })
    .sort(
      (a, b) =>
        FARED_ORDER.indexOf(a.fared) - FARED_ORDER.indexOf(b.fared) ||
        b.holds - a.holds ||
        Number(a.pair) - Number(b.pair) ||
        a.change.localeCompare(b.change),
    );
}

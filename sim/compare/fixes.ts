// The fixes the mitigation finder found, per cause group (compare/causes.ts): for every silent group
// it worked on, each single knob change (and each pair its pair search found) with how many of the
// group's findings it makes hold and the worst way it holds, ranked: clean first, then loud and
// recovers, then loud and never recovers; more findings first; a single change before a pair. The
// Markdown, HTML and terminal show these ("What changes what", each group's fixes; reports/compare-causes.ts
// computes them there, as reports import no code of sim/; test/reports/fixes-json.test.ts holds the two
// equal); compare.json carries them as `fixes`, so that a designer can script a decision. Read from the
// findings alone.
import { KNOB_TABLES } from '../../models/knobs.ts';
import type { ReportedFinding } from './cell-runner.ts';
import type { NumberedCauseGroup } from './causes.ts';
import type { Fared, Mitigation } from './mitigations.ts';

/** How a change holds, best first. */
export const FARED_ORDER: readonly Fared[] = ['clean', 'loud, recovers', 'loud, never recovers', 'policy-error', 'silent'];

/** How a change fared overall: the worse of its replay and its search (runs silent by another cause left out). */
export function faredOf(m: Mitigation): Fared {
  return [m.replay, m.search?.fared ?? m.replay].sort((a, b) => FARED_ORDER.indexOf(b) - FARED_ORDER.indexOf(a))[0]!;
}

/** The proposal a change's knob is (models/knobs.ts `proposal`), or null for a knob of the protocol. */
export function proposalOf(change: string): string | null {
  const m = /^(server|client)\.([^=+-]+)/.exec(change);
  const spec = m ? (KNOB_TABLES[m[1] as 'server' | 'client'][m[2]!] as { proposal?: string } | undefined) : undefined;
  return spec?.proposal ?? null;
}

type Group = Pick<NumberedCauseGroup, 'label' | 'silent' | 'findings'>;

export interface ChangeRow {
  /** A single change, or a pair (`a + b`, from the pair search: compare/mitigation-pairs.ts). */
  change: string;
  pair: boolean;
  /** Per silent group (by label): findings this change makes hold, of those with mitigations, and the worst way it holds. */
  cells: Map<string, { holds: number; of: number; fared: Fared | null }>;
  /** Silent findings it makes hold, over all groups. */
  total: number;
}

/** The "what changes what" table: every change (and every pair the pair search found) that makes some
 *  silent finding of `groups` hold, most first; with the silent groups the finder worked on. */
export function whatChangesWhat<G extends Group>(
  findings: readonly ReportedFinding[],
  groups: readonly G[],
): { groups: G[]; rows: ChangeRow[] } {
  // By id, not by a search of the list per id: a full matrix has thousands of findings.
  const byId = new Map(findings.map((f) => [f.id, f]));
  const silent = groups.filter((g) => g.silent && g.findings.some((id) => byId.get(id)?.mitigations));
  const rows = new Map<string, ChangeRow>();
  const count = (g: G, of: number, m: Mitigation, pair: boolean) => {
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
export function rankedFixes(rows: readonly ChangeRow[], g: Group): RankedFix[] {
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

/** compare.json's `fixes`: per silent group the finder worked on, in group order, its ranked fixes. */
export interface GroupFixes {
  group: string;
  mechanism: string;
  /** The group's findings, and how many of them the finder searched (`of` of each fix). */
  findings: number;
  searched: number;
  /** Ranked; `proposal`: the knob is outside the protocol as published (models/knobs.ts). Empty:
   *  no single change or found pair makes any of them hold. */
  fixes: (RankedFix & { proposal: string | null })[];
}

export function fixesByGroup(findings: readonly ReportedFinding[], groups: readonly NumberedCauseGroup[]): GroupFixes[] {
  const t = whatChangesWhat(findings, groups);
  const byId = new Map(findings.map((f) => [f.id, f]));
  return t.groups.map((g) => ({
    group: g.label,
    mechanism: g.mechanism,
    findings: g.findings.length,
    searched: g.findings.filter((id) => byId.get(id)?.mitigations).length,
    fixes: rankedFixes(t.rows, g).map((x) => ({ ...x, proposal: proposalOf(x.change) })),
  }));
}

// What the three comparison reports and the terminal share about causes and mitigations: the cause
// groups (findings with the same minimal plan and mechanism, the groups touching the most cells
// first), each with its cell and finding numbers, and the "what changes what" table (per single knob
// change, how many findings of each silent group it makes hold, and how).
import type { Comparison, ReportedFinding } from '../sim/compare/compare.ts';
import type { NumberedCauseGroup } from '../sim/compare/causes.ts';
import type { Fared, Mitigation } from '../sim/compare/mitigations.ts';
import { findingNumbers } from './compare-common.ts';

export interface NumberedGroup extends NumberedCauseGroup {
  /** 1-based cell numbers (as the matrix shows them) and finding numbers (as their sections). */
  cellNumbers: number[];
  findingNumbers: number[];
}

export function groupsOf(c: Comparison): NumberedGroup[] {
  const cellNumber = new Map(c.cells.map((x) => [x.id, x.index + 1]));
  const number = findingNumbers(c);
  return c.causes.map((g) => ({
    ...g,
    cellNumbers: g.cells.map((id) => cellNumber.get(id) ?? 0),
    findingNumbers: g.findings.map((id) => number.get(id) ?? 0),
  }));
}

/** Which group a finding is in. */
export function groupOfFinding(groups: readonly NumberedGroup[]): Map<string, NumberedGroup> {
  const m = new Map<string, NumberedGroup>();
  for (const g of groups) for (const id of g.findings) m.set(id, g);
  return m;
}

/** How a change holds, best first. */
const ORDER: Fared[] = ['clean', 'loud, recovers', 'loud, never recovers', 'policy-error', 'silent'];

export const FARED_MARK: Record<Fared, string> = {
  clean: '✅ clean',
  'loud, recovers': '🔊 loud, recovers',
  'loud, never recovers': '🔊 loud, never recovers',
  silent: '🔇 still silent',
  'policy-error': '💥 policy error',
};

/** How a change fared overall: the worse of its replay and its search (runs silent by another cause left out). */
export function faredOf(m: Mitigation): Fared {
  return [m.replay, m.search?.fared ?? m.replay].sort((a, b) => ORDER.indexOf(b) - ORDER.indexOf(a))[0]!;
}

/** One line for a finding's mitigations: the changes that make it hold, and how (ranked, as the finder
 *  ranks them); those that do not; those left out because they break the fault-free run; and the pair
 *  search where no single change holds clean (a sentence, with the pairs that hold clean). */
export function mitigationLine(f: ReportedFinding): {
  holds: { change: string; fared: Fared }[];
  fails: string[];
  wouldBreak: string[];
  pairs: { text: string; found: string[] } | null;
} | null {
  if (!f.mitigations) return null;
  const p = f.pairs;
  return {
    holds: f.mitigations.filter((m) => m.holds).map((m) => ({ change: m.change, fared: faredOf(m) })),
    fails: f.mitigations.filter((m) => !m.holds).map((m) => m.change),
    wouldBreak: (f.wouldBreak ?? []).map((w) => w.change),
    pairs: p
      ? {
          text: `no single change holds clean: ${p.tried} of ${p.of} pairs tried (${p.broken} broke the fault-free run), ${p.searched} searched, ${p.found.length ? `${p.found.length} hold clean` : 'none holds clean'}`,
          found: p.found.map((m) => m.change),
        }
      : null,
  };
}

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
 *  silent finding hold, most first. */
export function whatChangesWhat(c: Comparison, groups: readonly NumberedGroup[]): { groups: NumberedGroup[]; rows: ChangeRow[] } {
  // By id, not by a search of the list per id: a full matrix has thousands of findings.
  const byId = new Map(c.findings.map((f) => [f.id, f]));
  const silent = groups.filter((g) => g.silent && g.findings.some((id) => byId.get(id)?.mitigations));
  const rows = new Map<string, ChangeRow>();
  const count = (g: NumberedGroup, of: number, m: Mitigation, pair: boolean) => {
    let row = rows.get(m.change);
    if (!row) rows.set(m.change, (row = { change: m.change, pair, cells: new Map(), total: 0 }));
    const cell = row.cells.get(g.label) ?? { holds: 0, of, fared: null };
    if (m.holds) {
      cell.holds++;
      row.total++;
      const fared = faredOf(m);
      if (cell.fared === null || ORDER.indexOf(fared) > ORDER.indexOf(cell.fared)) cell.fared = fared;
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

/** A group's fixes, ranked: those that hold clean first, then loud and recovers, then loud and never
 *  recovers; within a rank, the one that holds for the most of the group's findings; a single change
 *  before a pair; then by name. */
export function rankedFixes(
  rows: readonly ChangeRow[],
  g: NumberedGroup,
): { change: string; pair: boolean; holds: number; of: number; fared: Fared }[] {
  return rows
    .flatMap((r) => {
      const x = r.cells.get(g.label);
      return x && x.holds > 0 ? [{ change: r.change, pair: r.pair, holds: x.holds, of: x.of, fared: x.fared! }] : [];
    })
    .sort(
      (a, b) =>
        ORDER.indexOf(a.fared) - ORDER.indexOf(b.fared) ||
        b.holds - a.holds ||
        Number(a.pair) - Number(b.pair) ||
        a.change.localeCompare(b.change),
    );
}

/** What the finder considered for a group's findings besides what holds: the changes it left out
 *  because they break the fault-free run (each once, with the first reason given), and the pair search
 *  over the findings where no single change held clean. */
export function groupConsidered(
  c: Comparison,
  g: NumberedGroup,
): { wouldBreak: { change: string; reason: string }[]; pairs: { findings: number; tried: number; searched: number; broken: number } } {
  const byId = new Map(c.findings.map((f) => [f.id, f]));
  const wouldBreak = new Map<string, string>();
  const pairs = { findings: 0, tried: 0, searched: 0, broken: 0 };
  for (const id of g.findings) {
    const f = byId.get(id);
    for (const w of f?.wouldBreak ?? []) if (!wouldBreak.has(w.change)) wouldBreak.set(w.change, w.reason);
    if (!f?.pairs) continue;
    pairs.findings++;
    pairs.tried += f.pairs.tried;
    pairs.searched += f.pairs.searched;
    pairs.broken += f.pairs.broken;
  }
  return { wouldBreak: [...wouldBreak].map(([change, reason]) => ({ change, reason })), pairs };
}

/** Per silent group that the finder worked on: its ranked fixes (singles and pairs) and what it left out. */
export function groupFixes(
  c: Comparison,
  t: { groups: NumberedGroup[]; rows: ChangeRow[] },
): { group: NumberedGroup; fixes: ReturnType<typeof rankedFixes>; considered: ReturnType<typeof groupConsidered> }[] {
  return t.groups.map((group) => ({ group, fixes: rankedFixes(t.rows, group), considered: groupConsidered(c, group) }));
}

/** Each change left out somewhere because it breaks the fault-free run, once, with its reason. */
export function leftOut(c: Comparison): { change: string; reason: string }[] {
  const m = new Map<string, string>();
  for (const f of c.findings) for (const w of f.wouldBreak ?? []) if (!m.has(w.change)) m.set(w.change, w.reason);
  return [...m].map(([change, reason]) => ({ change, reason }));
}

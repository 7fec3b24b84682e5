// What the three comparison reports and the terminal share about causes and mitigations: the cause
// groups (findings with the same minimal plan and mechanism, the groups touching the most cells
// first), each with its cell and finding numbers, and the "what changes what" table (per single knob
// change, how many findings of each silent group it makes hold, and how: core/fixes-table.ts).
import type { Comparison, ReportedFinding } from '../sim/compare/compare.ts';
import type { NumberedCauseGroup } from '../sim/compare/causes.ts';
import { faredOf, rankedFixes, whatChangesWhat as changeTable, type ChangeRow, type Fared } from '../sim/core/fixes-table.ts';
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

export const FARED_MARK: Record<Fared, string> = {
  clean: '✅ clean',
  'loud, recovers': '🔊 loud, recovers',
  'loud, never recovers': '🔊 loud, never recovers',
  silent: '🔇 still silent',
  'policy-error': '💥 policy error',
};

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

/** The "what changes what" table of the comparison's findings (core/fixes-table.ts, as compare.json's `fixes`). */
export function whatChangesWhat(c: Comparison, groups: readonly NumberedGroup[]): { groups: NumberedGroup[]; rows: ChangeRow[] } {
  return changeTable(c.findings, groups);
}

/** What the finder considered for a group's findings besides what holds: the changes it left out
 *  because they break the fault-free run (each once, with the first reason given), and the pair search
 *  over the findings where no single change held clean. */
export function groupConsidered(
  c: Comparison,
  g: NumberedGroup,
  byId: ReadonlyMap<string, ReportedFinding> = findingsById(c),
): { wouldBreak: { change: string; reason: string }[]; pairs: { findings: number; tried: number; searched: number; broken: number } } {
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

/** The comparison's findings by id: made once for all its groups (one map per group made a full
 *  matrix's 5,510 findings into a map for each of its groups). */
export const findingsById = (c: Comparison): Map<string, ReportedFinding> => new Map(c.findings.map((f) => [f.id, f]));

/** Per silent group that the finder worked on: its ranked fixes (singles and pairs) and what it left out. */
export function groupFixes(
  c: Comparison,
  t: { groups: NumberedGroup[]; rows: ChangeRow[] },
): { group: NumberedGroup; fixes: ReturnType<typeof rankedFixes>; considered: ReturnType<typeof groupConsidered> }[] {
  const byId = findingsById(c);
  return t.groups.map((group) => ({ group, fixes: rankedFixes(t.rows, group), considered: groupConsidered(c, group, byId) }));
}

/** Each change left out somewhere because it breaks the fault-free run, once, with its reason. */
export function leftOut(c: Comparison): { change: string; reason: string }[] {
  const m = new Map<string, string>();
  for (const f of c.findings) for (const w of f.wouldBreak ?? []) if (!m.has(w.change)) m.set(w.change, w.reason);
  return [...m].map(([change, reason]) => ({ change, reason }));
}

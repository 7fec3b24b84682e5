// The designer's answer, read from the matrix that was run: per scope (a record's workload under one
// fault alphabet; the full matrix's one), the combinations that did best for the server (the client
// kept as the scope's baseline), for the client (the server kept) and for the pair, ranked on a stated
// order; what each survives and, for what it does not, the finding and its mechanism; and where no
// combination is free of silent failure, the mechanisms that defeat every one, with what outside the
// vocabulary would be needed. Computed from the cells and findings alone (nothing is run here), so a
// merge of shards gives the same answer as one run; the ranking's rules are recommendation-rank.ts.
import { faultKind } from '../../models/faults.ts';
import { formatClient, formatCombination, formatServer, type Combination } from '../../models/policies.ts';
import type { CellResult } from './cell-result.ts';
import type { ReportedFinding } from './cell-runner.ts';
import type { NumberedCauseGroup } from './causes.ts';
import type { MatrixKind } from './matrix.ts';
import { candidateOf, rankCandidates, RANK_ORDER, withTies, type Candidate, type Ranked } from './recommendation-rank.ts';
import { changesFrom } from '../core/knob-changes.ts';
import { outsideVocabulary } from './recommendation-outside.ts';
import { changedBy, combinationKey, shownByReplays } from './recommendation-replays.ts';
import { FARED_ORDER, faredOf } from '../core/fixes-table.ts';
import { proposalOf } from './fixes.ts';
import type { Fared } from './mitigations.ts';

export type { Candidate, Failure, Ranked } from './recommendation-rank.ts';
export { RANK_ORDER } from './recommendation-rank.ts';

/** A mechanism no combination of the scope escapes: silent in every one of them. */
export interface Unfixed {
  mechanism: string;
  how: string;
  /** The fault families in the minimal plans of its findings, most findings first. */
  families: string[];
  /** In how many of the scope's combinations it is silent, and in how many of those only a replay of
   *  another cell's finding showed it (their own runs never met it: compare/recommendation-replays.ts). */
  silentIn: number;
  shownByReplay: number;
  /** The cause groups (G1, …) its findings are in, and the finding shown for it (the best-ranked
   *  combination's). */
  groups: string[];
  finding: string;
  /** What the vocabulary lacks to fix it (recommendation-outside.ts), or null when nothing is said. */
  outside: string | null;
  /** Changes the mitigation finder found to make its findings hold (`change` as the finder names it;
   *  `proposal`: a knob outside the protocol as published, models/knobs.ts), best first. A change
   *  that lands on a combination of the scope is left out where the mechanism is silent in every one
   *  (its own search missed it there; another's finding shows it). */
  fixes: { change: string; holds: number; of: number; fared: Fared; proposal: string | null }[];
}

export interface RecommendationScope {
  /** `record 000 · record alphabet`, `all faults`, …: the workload and the alphabet the cells share. */
  name: string;
  record: '000' | '003' | null;
  alphabet: CellResult['alphabet'];
  /** The fault families the alphabet draws from. */
  families: string[];
  /** The combination the sides change from: the record's vulnerable cell, or every knob at its default. */
  baseline: { label: string; combination: Combination };
  /** How many distinct combinations the scope holds. */
  combinations: number;
  /** Some combination had no silent failure. */
  clean: boolean;
  /** Where none had: the mechanisms silent in every combination. Empty when `clean`. */
  unfixed: Unfixed[];
  /** Where none had and no mechanism is silent in every one: those silent in at least half of them,
   *  most combinations first (each with `silentIn`). Empty otherwise. */
  widespread: Unfixed[];
  /** The fault families in a silent finding of every combination (none of the vocabulary survives them). */
  defeatEvery: string[];
  /** Best first, at most RECOMMENDED per list, ranked within the list. Server: the client kept
   *  as the baseline's; client: the server kept; pair: any combination. */
  server: Ranked[];
  client: Ranked[];
  pair: Ranked[];
}

export interface Recommendation {
  /** What it was computed over: a shard's or an interrupted run's answer covers only the cells it ran. */
  over: { matrix: MatrixKind; cells: number; of: number; runs: number; seed: number; partial: boolean };
  /** The ranking's criteria, first decides. */
  order: readonly string[];
  scopes: RecommendationScope[];
}

/** How many combinations each side's list shows (ties at the last rank are kept). */
export const RECOMMENDED = 3;

export interface RecommendationInput {
  matrix: { kind: MatrixKind; size: number };
  seed: number;
  runs: number;
  interrupted: boolean;
  cells: readonly CellResult[];
  findings: readonly ReportedFinding[];
  /** The findings' cause groups (compare/causes.ts `numberedCauseGroups`). */
  causes: readonly NumberedCauseGroup[];
}

interface Scope {
  key: string;
  cells: CellResult[];
}

/** Cells that share a workload and a fault alphabet: a record's cells (by record and alphabet), a
 *  full matrix's (one scope). */
function scopesOf(cells: readonly CellResult[]): Scope[] {
  const scopes = new Map<string, Scope>();
  for (const cell of cells) {
    const key = JSON.stringify([cell.record, cell.alphabet, cell.faults]);
    let s = scopes.get(key);
    if (!s) scopes.set(key, (s = { key, cells: [] }));
    s.cells.push(cell);
  }
  return [...scopes.values()];
}

function scopeName(cell: CellResult): string {
  const faults = cell.alphabet === 'all faults' ? 'all faults' : `${cell.alphabet} (${cell.faults.join(', ')})`;
  return cell.record ? `record ${cell.record} · ${faults}` : faults;
}

/** Each record's vulnerable combination (under 2025-11-25 in a migration matrix), by record. */
function vulnerableOf(cells: readonly CellResult[]): Map<string, Combination> {
  const out = new Map<string, Combination>();
  for (const c of cells)
    if (c.record && c.role === 'vulnerable' && (!c.migration || c.migration.pair === '2025-11-25') && !out.has(c.record))
      out.set(c.record, c.combination);
  return out;
}

/** The scope's baseline: its record's vulnerable combination, else the combination with every knob at
 *  its default, else its first cell's. */
function baselineOf(cells: readonly CellResult[], vulnerable: ReadonlyMap<string, Combination>): RecommendationScope['baseline'] {
  const record = cells[0]!.record;
  const v = record ? vulnerable.get(record) : undefined;
  const own = v && cells.find((c) => formatCombination(c.combination) === formatCombination(v));
  if (own) return { label: `record ${record}'s vulnerable combination`, combination: own.combination };
  const defaults = cells.find((c) => changesFrom(c.combination, null).length === 0);
  if (defaults) return { label: 'every knob at its default', combination: defaults.combination };
  return { label: `the first cell's combination (${cells[0]!.name})`, combination: cells[0]!.combination };
}

/** `a` and `b` hold the same policy on `side`. */
function sameSide(a: Combination, b: Combination, side: 'server' | 'client'): boolean {
  return side === 'server' ? formatServer(a.server) === formatServer(b.server) : formatClient(a.client) === formatClient(b.client);
}

/** The mechanisms silent in every candidate (else those in at least half: `widespread`), and the
 *  families in a silent finding of every candidate. */
function unfixedOf(
  ranked: readonly Ranked[],
  candidates: readonly Candidate[],
  groups: ReadonlyMap<string, NumberedCauseGroup>,
  findings: ReadonlyMap<string, ReportedFinding>,
): { unfixed: Unfixed[]; widespread: Unfixed[]; defeatEvery: string[] } {
  const silentOf = (c: Candidate) => c.failures.filter((f) => f.silent);
  const every = <T>(sets: T[][]): T[] => (sets.length === 0 ? [] : sets[0]!.filter((x) => sets.every((s) => s.includes(x))));
  const defeatEvery = every(candidates.map((c) => [...new Set(silentOf(c).flatMap((f) => f.families))])).sort();
  const inScope = new Set(candidates.map((c) => combinationKey(c.combination)));
  const best = ranked[0];
  const count = new Map<string, number>();
  for (const c of candidates) for (const m of new Set(silentOf(c).map((f) => f.mechanism))) count.set(m, (count.get(m) ?? 0) + 1);
  const unfixedFor = (mechanism: string): Unfixed => {
    const all = candidates.flatMap((c) => silentOf(c).filter((f) => f.mechanism === mechanism));
    const own = [...new Map(all.filter((f) => !f.replayed).map((f) => [f.finding, f])).values()];
    const familyCount = new Map<string, number>();
    for (const f of own) for (const k of f.families) familyCount.set(k, (familyCount.get(k) ?? 0) + 1);
    const shown = best?.failures.find((f) => f.silent && f.mechanism === mechanism) ?? own[0] ?? all[0]!;
    const everywhere = count.get(mechanism) === candidates.length;
    // Where it is silent in every combination, a change that stays inside the scope fixes nothing.
    const outside = (f: ReportedFinding, change: string) => {
      const c = changedBy(f.combination, change);
      return !everywhere || !c || !inScope.has(combinationKey(c));
    };
    return {
      mechanism,
      how: shown.how,
      families: [...familyCount].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k]) => k),
      silentIn: count.get(mechanism) ?? 0,
      shownByReplay: candidates.filter((c) => c.failures.some((f) => f.mechanism === mechanism && f.replayed)).length,
      groups: [...new Set(own.map((f) => groups.get(f.finding)?.label).filter((g): g is string => !!g))],
      finding: shown.finding,
      outside: outsideVocabulary(mechanism),
      fixes: fixesOf(
        own.map((f) => findings.get(f.finding)).filter((f): f is ReportedFinding => !!f),
        outside,
      ),
    };
  };
  const byCount = [...count].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const unfixed = byCount.filter(([, n]) => n === candidates.length).map(([m]) => unfixedFor(m));
  const widespread = unfixed.length ? [] : byCount.filter(([, n]) => 2 * n >= candidates.length).map(([m]) => unfixedFor(m));
  return { unfixed, widespread, defeatEvery };
}

/** The finder's changes that make some of `fs` hold (those `keep` admits), with how many and the worst
 *  way, best first. */
function fixesOf(fs: readonly ReportedFinding[], keep: (f: ReportedFinding, change: string) => boolean): Unfixed['fixes'] {
  const searched = fs.filter((f) => f.mitigations);
  const rows = new Map<string, Unfixed['fixes'][number]>();
  for (const f of searched) {
    for (const m of f.mitigations!) {
      if (!m.holds || !keep(f, m.change)) continue;
      const fared = faredOf(m);
      const row = rows.get(m.change) ?? { change: m.change, holds: 0, of: searched.length, fared, proposal: proposalOf(m.change) };
      row.holds++;
      if (FARED_ORDER.indexOf(fared) > FARED_ORDER.indexOf(row.fared)) row.fared = fared;
      rows.set(m.change, row);
    }
  }
  return [...rows.values()].sort(
    (a, b) => FARED_ORDER.indexOf(a.fared) - FARED_ORDER.indexOf(b.fared) || b.holds - a.holds || a.change.localeCompare(b.change),
  );
}

/** The best RECOMMENDED of `ranked` among those `keep` admits, in rank order (those tied with one are counted on it). */
function topOf(ranked: readonly Ranked[], keep: (r: Ranked) => boolean): Ranked[] {
  // Ranked again within the list: its first is 1, and those tied overall stay tied.
  const kept = ranked.filter(keep);
  const firstOfRank = new Map<number, number>();
  kept.forEach((r, i) => {
    if (!firstOfRank.has(r.rank)) firstOfRank.set(r.rank, i + 1);
  });
  const relisted = kept.map((r) => ({ ...r, rank: firstOfRank.get(r.rank)! }));
  return relisted.slice(0, RECOMMENDED).map((r) => withTies(r, relisted));
}

/** The recommendation for a comparison's cells and findings (every finding annotated with its cause). */
export function recommend(c: RecommendationInput): Recommendation {
  const groups = new Map<string, NumberedCauseGroup>();
  for (const g of c.causes) for (const id of g.findings) groups.set(id, g);
  const findings = new Map(c.findings.map((f) => [f.id, f]));
  const byCell = new Map<string, ReportedFinding[]>();
  for (const f of c.findings) byCell.set(f.cell, [...(byCell.get(f.cell) ?? []), f]);
  const vulnerable = vulnerableOf(c.cells);
  const scopes = scopesOf(c.cells).map((s): RecommendationScope => {
    const base = baselineOf(s.cells, vulnerable);
    const own = s.cells.flatMap((cell) => byCell.get(cell.id) ?? []);
    const shown = shownByReplays(own, new Set(s.cells.map((cell) => combinationKey(cell.combination))));
    const candidates = new Map<string, Candidate>();
    for (const cell of s.cells) {
      const key = formatCombination(cell.combination);
      const seen = candidates.get(key);
      if (seen) seen.cells.push(cell.id);
      else {
        const replays = (shown.get(combinationKey(cell.combination)) ?? []).filter((r) => r.finding.cell !== cell.id);
        candidates.set(key, candidateOf(cell, base.combination, byCell.get(cell.id) ?? [], groups, replays));
      }
    }
    const all = [...candidates.values()];
    const ranked = rankCandidates(all);
    const clean = ranked.some((r) => !r.silent && r.class !== 'policy-error' && r.class !== 'broken without faults');
    const { unfixed, widespread, defeatEvery } = clean
      ? { unfixed: [], widespread: [], defeatEvery: [] }
      : unfixedOf(ranked, all, groups, findings);
    const first = s.cells[0]!;
    return {
      name: scopeName(first),
      record: first.record,
      alphabet: first.alphabet,
      families: [...new Set(first.faults.map((f) => faultKind(f)))],
      baseline: base,
      combinations: all.length,
      clean,
      unfixed,
      widespread,
      defeatEvery,
      server: topOf(ranked, (r) => sameSide(r.combination, base.combination, 'client')),
      client: topOf(ranked, (r) => sameSide(r.combination, base.combination, 'server')),
      pair: topOf(ranked, () => true),
    };
  });
  // The records' own alphabets first, then the whole vocabulary: the order a designer asks in.
  scopes.sort((a, b) => Number(a.alphabet === 'all faults') - Number(b.alphabet === 'all faults'));
  return {
    over: {
      matrix: c.matrix.kind,
      cells: c.cells.length,
      of: c.matrix.size,
      runs: c.runs,
      seed: c.seed,
      partial: c.interrupted || c.cells.length < c.matrix.size,
    },
    order: RANK_ORDER,
    scopes,
  };
}

// How the recommendation (compare/recommendation.ts) ranks the combinations of one scope: each read
// from its cell (how its calls fared over the cell's runs, what those runs cost) and its findings (what
// defeated it, by which mechanism), then ordered on RANK_ORDER, first criterion first. Two combinations
// that no criterion tells apart, and whose costs differ by less than COST_MARGIN, share a rank: the
// data does not say which is better. Every cell of a scope draws the same inputs from the same seed
// (one workload shape, one alphabet), so a difference in counts is a difference on the same inputs.
import { faultKind } from '../../models/faults.ts';
import type { Combination } from '../../models/policies.ts';
import type { CellClass, CellResult } from './cell-result.ts';
import type { ReportedFinding } from './cell-runner.ts';
import type { NumberedCauseGroup } from './causes.ts';
import type { Finding } from './findings.ts';
import { changesFrom } from '../core/knob-changes.ts';
import type { ShownByReplay } from './recommendation-replays.ts';

/** The ranking's criteria, in the order they decide. */
export const RANK_ORDER: readonly string[] = [
  'no silent failure (no call came back wrong or hung, no tool ran twice)',
  'recovers (every session heals after its last fault)',
  'no duplicate execution (at-most-once holds)',
  'fewest silent failures over the same runs (where every combination has some)',
  'cost: fewest extra round trips (reconnects and re-initializations), then fewest refused calls',
];

/** Costs closer than this share a rank (a tenth: differences the same runs show but a designer would not weigh). */
export const COST_MARGIN = 0.1;

/** One way a combination failed: a finding of its cell, the fault families of its minimal plan, and its mechanism. */
export interface Failure {
  finding: string;
  /** The cause group (G1, …) the finding is in. */
  group: string | null;
  properties: string[];
  /** The agent never heard of it: a call came back wrong or hung, or a tool ran twice. */
  silent: boolean;
  plan: string;
  families: string[];
  mechanism: string;
  how: string;
  /** Present when the combination's own runs never met it: the finding is another cell's, whose own
   *  input the finder replayed on this combination (`change` away), silent there by the same
   *  mechanism (compare/recommendation-replays.ts). */
  replayed?: { change: string };
}

export interface Candidate {
  /** `server.reinit=pin-first`, … where it differs from the scope's baseline; empty: the baseline itself. */
  changes: string[];
  combination: Combination;
  /** Its cells (a combination run twice under one alphabet has two). */
  cells: string[];
  class: CellClass;
  silent: boolean;
  recovers: boolean;
  /** A tool ran twice: in its own runs (at-most-once violated) or in a replay of another cell's finding. */
  duplicate: boolean;
  /** Over the cell's runs: calls that came back wrong or hung, runs in which a tool ran twice, runs whose
   *  capabilities changed under the session (caps-immutable), calls refused (a loud error), and
   *  reconnects plus re-initializations. */
  counts: { runs: number; silentCalls: number; duplicateRuns: number; capsChangedRuns: number; refused: number; roundTrips: number };
  /** The alphabet's families no silent finding of it involves. Where it has silent findings this is
   *  weaker than "survives": a search keeps one counterexample per property, so a family may be masked. */
  survives: string[];
  /** Its findings, silent first. */
  failures: Failure[];
}

export interface Ranked extends Candidate {
  /** 1-based; equal for combinations the data does not tell apart. */
  rank: number;
  /** How many others share its rank, and the first few of them (their changes, or `baseline`). */
  tiedWith: { count: number; shown: string[] };
}

function violations(cell: CellResult, property: string): number {
  const r = cell.results.find((p) => p.property === property);
  return r?.verdict === 'violated' ? r.violations : 0;
}

/** A finding the agent never hears of: a call came back wrong or hung, or a tool ran twice. */
export function silentFailure(f: Finding): boolean {
  if (f.kind !== 'violation') return false;
  return (
    f.properties.some((p) => p.property === 'at-most-once') ||
    f.outcomes.some((o) => o.outcome === 'silent-empty' || o.outcome === 'silent-hang')
  );
}

const DUPLICATE = 'duplicate-execution';

function failureOf(f: ReportedFinding, groups: ReadonlyMap<string, NumberedCauseGroup>): Failure {
  return {
    finding: f.id,
    group: groups.get(f.id)?.label ?? null,
    properties: f.properties.map((p) => p.property),
    silent: silentFailure(f),
    plan: f.cause?.plan ?? '',
    families: [...new Set(f.plan.map((p) => faultKind(p.fault)))],
    mechanism: f.cause?.mechanism ?? 'unknown',
    how: f.cause?.how ?? f.properties[0]?.why ?? '',
  };
}

/** A candidate from its (first) cell, that cell's findings, and the other cells' findings whose input
 *  the finder's replays showed silent on it (`shown`: one per mechanism its own findings lack is kept). */
export function candidateOf(
  cell: CellResult,
  base: Combination,
  findings: readonly ReportedFinding[],
  groups: ReadonlyMap<string, NumberedCauseGroup>,
  shown: readonly ShownByReplay[] = [],
): Candidate {
  const o = cell.results[0]?.outcomes;
  const own = findings.filter((f) => f.kind === 'violation' || f.kind === 'policy-error').map((f) => failureOf(f, groups));
  const met = new Set(own.filter((f) => f.silent).map((f) => f.mechanism));
  const replayed: Failure[] = [];
  for (const s of shown) {
    const f = failureOf(s.finding, groups);
    if (!f.silent || met.has(f.mechanism)) continue;
    met.add(f.mechanism);
    replayed.push({ ...f, replayed: { change: s.change } });
  }
  const failures = [...own, ...replayed].sort((a, b) => Number(b.silent) - Number(a.silent));
  const silentFamilies = new Set(failures.filter((f) => f.silent).flatMap((f) => f.families));
  return {
    changes: changesFrom(cell.combination, base),
    combination: cell.combination,
    cells: [cell.id],
    class: cell.class,
    silent: cell.class === 'silent' || replayed.length > 0,
    recovers: violations(cell, 'recovers') === 0,
    duplicate: violations(cell, 'at-most-once') > 0 || replayed.some((f) => f.mechanism === DUPLICATE),
    counts: {
      runs: cell.runs,
      silentCalls: o ? o['silent-empty'] + o['silent-hang'] : 0,
      duplicateRuns: violations(cell, 'at-most-once'),
      capsChangedRuns: violations(cell, 'caps-immutable'),
      refused: o?.error ?? 0,
      roundTrips: cell.stats ? cell.stats.reconnects + cell.stats.reinitializes : 0,
    },
    survives: [...new Set(cell.faults.map((f) => faultKind(f)))].filter((k) => !silentFamilies.has(k)),
    failures,
  };
}

/** Worst first: a combination that cannot run at all, or whose policy failed, ranks last. */
const UNUSABLE: readonly CellClass[] = ['policy-error', 'broken without faults'];

/** The criteria before cost, as numbers (smaller is better). */
function keyOf(c: Candidate): number[] {
  const silentFailures = c.counts.silentCalls + c.counts.duplicateRuns;
  return [UNUSABLE.includes(c.class) ? 1 : 0, c.silent ? 1 : 0, c.recovers ? 0 : 1, c.duplicate ? 1 : 0, c.silent ? silentFailures : 0];
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= COST_MARGIN * Math.max(a, b);
}

function sameRank(a: Candidate, b: Candidate): boolean {
  const ka = keyOf(a);
  const kb = keyOf(b);
  return ka.every((x, i) => x === kb[i]) && close(a.counts.roundTrips, b.counts.roundTrips) && close(a.counts.refused, b.counts.refused);
}

function compare(a: Candidate, b: Candidate): number {
  const ka = keyOf(a);
  const kb = keyOf(b);
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!;
  return a.counts.roundTrips - b.counts.roundTrips || a.counts.refused - b.counts.refused || a.changes.length - b.changes.length;
}

const nameOf = (c: Candidate) => (c.changes.length ? c.changes.join(' + ') : 'baseline');

/** `candidates` best first, each with its rank; ties keep the matrix's order. */
export function rankCandidates(candidates: readonly Candidate[]): Ranked[] {
  const sorted = candidates.map((c, i) => ({ c, i })).sort((a, b) => compare(a.c, b.c) || a.i - b.i);
  const out: Ranked[] = [];
  let leader: Candidate | null = null;
  let rank = 0;
  for (const { c } of sorted) {
    if (!leader || !sameRank(leader, c)) {
      leader = c;
      rank = out.length + 1;
    }
    out.push({ ...c, rank, tiedWith: { count: 0, shown: [] } });
  }
  return out;
}

/** How many tied names a list shows. */
const TIED_SHOWN = 4;

/** `r` with the others of its rank in `ranked` (asked only of the combinations a report shows). */
export function withTies(r: Ranked, ranked: readonly Ranked[]): Ranked {
  const others = ranked.filter((o) => o.rank === r.rank && o !== r);
  return { ...r, tiedWith: { count: others.length, shown: others.slice(0, TIED_SHOWN).map(nameOf) } };
}

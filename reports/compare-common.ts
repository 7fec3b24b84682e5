// What the three comparison reports share: the marks for verdicts and cell classes, which findings
// are shown in detail, and the fields a cell result carries beyond the ones the reports know
// (another tier's additions are shown as data, never dropped).
import type { CellClass, CellResult, Comparison } from '../sim/compare/compare.ts';
import type { Finding } from '../sim/compare/findings.ts';
import type { Outcome } from '../properties/outcomes.ts';
import type { SearchVerdict } from '../properties/vacuity.ts';
import { formatClient, formatServer, KNOB_TABLES, notApplicable, policyKnobs, type Combination, type Side } from '../models/policies.ts';

/** Findings shown with their history and diagram; the rest are listed in one line each. */
export const DEFAULT_DETAILS = 200;

export const CLASS_MARK: Record<CellClass, string> = {
  'policy-error': '💥 policy error',
  'broken without faults': '⛔ broken without faults',
  silent: '🔇 silent',
  'loud, never recovers': '🔊 loud, never recovers',
  'loud, recovers': '🔊 loud, recovers',
  clean: '✅ clean',
};

export const CLASS_MEANING: Record<CellClass, string> = {
  'policy-error': 'a designer policy threw, returned nonsense, hung or did not terminate',
  'broken without faults': 'a call fails with no fault at all (the sides cannot talk): no fault was tried',
  silent: 'some call came back well-formed and wrong, or hung, with no error anywhere',
  'loud, never recovers': 'no silent call, but errors that go on after the faults stop',
  'loud, recovers': 'no silent call; errors heal once the faults stop',
  clean: 'every call returned what the fault-free run returned',
};

export const VERDICT_MARK = { holds: '✅', violated: '❌', vacuous: '◌' } as const;

/** What a verdict cell of the matrix shows: a property's verdict, a policy error, or nothing run. */
export type VerdictKind = SearchVerdict | 'policy-error' | 'not-run';

const KIND_MARK: Record<VerdictKind, string> = { ...VERDICT_MARK, 'policy-error': '💥', 'not-run': '' };

const KNOWN = new Set([
  'index',
  'id',
  'name',
  'record',
  'role',
  'alphabet',
  'class',
  'combination',
  'seed',
  'runs',
  'faults',
  'results',
  'stats',
  'policyError',
  'brokenWithoutFaults',
  'coverage',
  'exploration',
  'wire',
  'skipped',
  'migration',
]);

/** Fields of a cell result that the reports do not interpret, in the result's own order. */
export function extraFields(cell: CellResult): [string, unknown][] {
  return Object.entries(cell).filter(([k]) => !KNOWN.has(k));
}

export function detailed(c: Comparison, limit: number): { detailed: Finding[]; listed: Finding[] } {
  return { detailed: c.findings.slice(0, limit), listed: c.findings.slice(limit) };
}

export function outcomeMap(f: Finding): Map<number, Outcome> {
  return new Map(f.outcomes.map((o) => [o.callId, o.outcome]));
}

export function combinationLine(c: Combination): string {
  const na = notApplicable(c);
  return `server ${formatServer(c.server)} · client ${formatClient(c.client)}${na.length ? ` · not applicable: ${na.join(', ')}` : ''}`;
}

export function counterexamplePath(f: Finding): string {
  return `counterexamples/${f.id}.json`;
}

/** A cell's calls over its runs (ok, loud, silent), and the runs with a silent failure no call's outcome
 *  shows: a tool that ran twice for one call (`twice`, at-most-once), a session whose capabilities
 *  changed without a reset (`capsChanged`, caps-immutable). */
export function callCounts(cell: CellResult): { ok: number; loud: number; silent: number; twice: number; capsChanged: number } {
  const o = cell.results[0]?.outcomes;
  const runs = (property: string) => {
    const r = cell.results.find((p) => p.property === property);
    return r?.verdict === 'violated' ? r.violations : 0;
  };
  const twice = runs('at-most-once');
  const capsChanged = runs('caps-immutable');
  const calls = o ? { ok: o.ok, loud: o.error, silent: o['silent-empty'] + o['silent-hang'] } : { ok: 0, loud: 0, silent: 0 };
  return { ...calls, twice, capsChanged };
}

/** The runs `callCounts` counts apart from the calls: `+Nd` a tool ran twice, `+Nc` capabilities changed. */
export function apartText(n: { twice: number; capsChanged: number }, sep = ''): string {
  return `${n.twice ? `${sep}+${n.twice}d` : ''}${n.capsChanged ? `${sep}+${n.capsChanged}c` : ''}`;
}

/** What `callCountsText`'s parts mean, for a legend. */
export const CALL_COUNTS_LEGEND =
  "ok/loud/silent = calls (silent: came back wrong or hung with no error); +Nd = runs in which a tool ran twice for one call (silent: the agent saw one result); +Nc = runs in which a session's capabilities changed without a reset (caps-immutable: silent unless a guard refused it, and then its calls count loud)";

/** `ok/loud/silent`, with `+Nd` and `+Nc` for the runs with a silent failure the calls do not show. */
export function callCountsText(cell: CellResult, sep = '/'): string {
  const n = callCounts(cell);
  return `${n.ok}${sep}${n.loud}${sep}${n.silent}${apartText(n)}`;
}

/** Each finding's number in the report: its section's number, the same in every link to it. */
export function findingNumbers(c: Comparison): Map<string, number> {
  return new Map(c.findings.map((f, i) => [f.id, i + 1]));
}

export function findingsByCell(c: Comparison): Map<string, Finding[]> {
  const m = new Map<string, Finding[]>();
  for (const f of c.findings) m.set(f.cell, [...(m.get(f.cell) ?? []), f]);
  return m;
}

export interface VerdictShown {
  kind: VerdictKind;
  mark: string;
  text: string;
  sort: number;
  violations: number;
}

/** One property's verdict in one cell, as data (`kind`, `violations`) and as the reports show it. */
export function verdictCell(cell: CellResult, property: string): VerdictShown {
  const shown = (kind: VerdictKind, text: string, sort: number, violations = 0): VerdictShown => {
    return { kind, mark: KIND_MARK[kind], text, sort, violations };
  };
  if (cell.policyError) return shown('policy-error', 'policy error', 3);
  const r = cell.results.find((p) => p.property === property);
  if (!r) return shown('not-run', 'not run', -1);
  if (r.verdict === 'violated') {
    return shown('violated', `violated in ${r.violations}/${cell.runs}`, 2 + r.violations / (cell.runs + 1), r.violations);
  }
  if (r.verdict === 'vacuous') return shown('vacuous', 'vacuous: never reached', 1);
  return shown('holds', `holds (reached ${r.reached}/${cell.runs})`, 0);
}

/** A side's knobs over some cells, in knob order: the built-in ones, then those policy modules declared
 *  (read from the combinations themselves, so a merged report without the modules has them too). */
export function sideKnobs(cells: readonly Pick<CellResult, 'combination'>[], side: Side): string[] {
  const out = Object.keys(KNOB_TABLES[side]);
  for (const cell of cells) for (const k of policyKnobs(side, cell.combination[side])) if (!out.includes(k)) out.push(k);
  return out;
}

/**
 * The knobs a report's filters and columns show, as [side, knob]: those the full matrix varies, server
 * then client, then those it holds at their defaults (the 2026-07-28 revision's: models/knobs.ts `fullMatrix`),
 * then the ones policy modules declared.
 */
export function knobColumns(cells: readonly Pick<CellResult, 'combination'>[]): [Side, string][] {
  const builtin = (held: boolean) =>
    (['server', 'client'] as const).flatMap((side) =>
      Object.entries(KNOB_TABLES[side])
        .filter(([, spec]) => (spec.fullMatrix === 'default') === held)
        .map(([knob]): [Side, string] => [side, knob]),
    );
  const declared = (['server', 'client'] as const).flatMap((side) =>
    sideKnobs(cells, side)
      .filter((knob) => !Object.hasOwn(KNOB_TABLES[side], knob))
      .map((knob): [Side, string] => [side, knob]),
  );
  return [...builtin(false), ...builtin(true), ...declared];
}

/** How a cell's two sides read: each knob's value in `sideKnobs` order (a set's members joined with '+',
 *  `no <knob>` for none), or the real code a wire cell put there. */
export function sides(cell: CellResult): { server: string; client: string } {
  const wire = (cell as { wire?: { server: string; client: string } }).wire;
  const show = (side: Side) => {
    const policy = cell.combination[side] as unknown as Record<string, unknown>;
    return policyKnobs(side, policy)
      .map((k) => {
        const v = policy[k];
        return Array.isArray(v) ? v.join('+') || `no ${k}` : String(v);
      })
      .join(' · ');
  };
  const model = { server: show('server'), client: show('client') };
  if (!wire) return model;
  return {
    server: wire.server.startsWith('model ') ? `${model.server} (wire)` : `${wire.server} (real code)`,
    client: wire.client.startsWith('model ') ? `${model.client} (wire)` : `${wire.client} (real code)`,
  };
}

/** Faults a wire cell's server could not take part in, with why ("" when none). */
export function skippedFaults(cell: CellResult): string {
  const skipped = (cell as { skipped?: Record<string, string> }).skipped ?? {};
  return Object.entries(skipped)
    .map(([fault, why]) => `${fault}: ${why}`)
    .join('; ');
}

// The conformance suite's checks merged into the audit's spec lens by requirement (issue 37 item 8):
// each requirement of the transport table (transport-requirements.ts) whose `suite` column names a
// server check gets one row per revision both tools ran, with the audit's verdict (its probes'
// spec checks), the suite's (its checks, a known false pass marked as such: false-passes.ts) and
// whether they agree; every other check the suite made is listed as the suite's alone. Pure: the
// audit's result and the suite's runs in, the merged lens out.
import type { Revision } from '../../../models/policies.ts';
import { specVerdictOf, type SpecVerdict } from '../../core/audit-verdict.ts';
import type { ScenarioResult } from '../audit-row.ts';
import { TRANSPORT_REQUIREMENTS, type TransportRequirement } from '../transport-requirements.ts';
import { falsePass, missingFixture } from './false-passes.ts';
import type { SuiteCheck, SuiteRun, SuiteStatus } from './suite-output.ts';
import type { Agreement, ConformanceLens, MergedCheck, MergedRequirement, SuiteVerdict } from './lens.ts';

interface SuiteRef {
  scenario: string;
  /** The check id, a prefix ending in `*`, or null for the whole scenario. */
  check: string | null;
}

/** The server checks a requirement's `suite` column names: `scenario/check`, a bare scenario, or a bare
 *  check of the scenario named before it. Client legs, implicit and indirect overlaps name none. */
export function suiteRefs(text: string): SuiteRef[] {
  if (/^(none|client leg|implicit|indirect|as above)/i.test(text.trim())) return [];
  const refs: SuiteRef[] = [];
  let scenario: string | null = null;
  for (const [, token] of text.matchAll(/`([^`]+)`/g)) {
    const t = token!.trim();
    if (/[…{ ]/.test(t)) continue;
    const slash = t.indexOf('/');
    if (slash > 0) {
      scenario = t.slice(0, slash);
      refs.push({ scenario, check: t.slice(slash + 1) });
    } else if (scenario) refs.push({ scenario, check: t });
    else {
      scenario = t;
      refs.push({ scenario: t, check: null });
    }
  }
  return refs;
}

function matches(ref: SuiteRef, scenario: string, check: string): boolean {
  if (ref.scenario !== scenario) return false;
  // A whole scenario is its own checks, not the schema check every scenario carries.
  if (ref.check === null) return check !== 'wire-schema-valid';
  return ref.check === check || (ref.check.endsWith('*') && check.startsWith(ref.check.slice(0, -1)));
}

/** The server's tool names as the suite's tools-list scenario saw them, or null where it saw none. */
function toolsSeen(run: SuiteRun): string[] | null {
  const check = run.scenarios.find((s) => s.name === 'tools-list')?.checks.find((c) => c.id === 'tools-list');
  const tools = check?.details?.tools;
  return Array.isArray(tools) && tools.every((t) => typeof t === 'string') ? tools : null;
}

const SEVERITY: readonly SuiteStatus[] = ['FAILURE', 'WARNING', 'SUCCESS', 'SKIPPED', 'INFO'];

/** A run's checks, one per scenario and id (a repeated id: its most severe occurrence, as the suite's own baseline does). */
function mergedChecks(run: SuiteRun): MergedCheck[] {
  const out: MergedCheck[] = [];
  const serverTools = toolsSeen(run);
  for (const s of run.scenarios) {
    const byId = new Map<string, SuiteCheck>();
    for (const c of s.checks) {
      if (c.id === 'wire-schema-harness-error' && c.status !== 'FAILURE') continue;
      const had = byId.get(c.id);
      if (!had || SEVERITY.indexOf(c.status) < SEVERITY.indexOf(had.status)) byId.set(c.id, c);
    }
    for (const c of byId.values()) {
      if (c.status === 'INFO' || c.status === 'SKIPPED') continue;
      const fp = falsePass(s.name, c, serverTools);
      const fixture = missingFixture(s.name, c, serverTools);
      const verdict: SuiteVerdict = fp
        ? 'false pass'
        : fixture
          ? 'not testable'
          : c.status === 'SUCCESS'
            ? 'pass'
            : c.status === 'FAILURE'
              ? 'fail'
              : 'warning';
      out.push({ scenario: s.name, check: c.id, status: c.status, verdict, scored: s.scored, why: fp ?? fixture ?? c.message });
    }
  }
  return out;
}

const SUITE_ORDER: readonly SuiteVerdict[] = ['fail', 'false pass', 'warning', 'pass', 'not testable', 'not run'];
const suiteVerdictOf = (checks: readonly MergedCheck[]): SuiteVerdict =>
  SUITE_ORDER.find((v) => checks.some((c) => c.verdict === v)) ?? 'not run';

function auditSide(
  r: TransportRequirement,
  revision: Revision,
  rows: readonly ScenarioResult[],
): { verdict: SpecVerdict | 'no probe'; rows: string[] } {
  const probed = rows.filter((s) => r.probes.includes(s.name));
  if (!probed.length) return { verdict: 'no probe', rows: [] };
  const checks = probed.flatMap((s) => (s.spec?.checks ?? []).filter((c) => c.requirement.startsWith(`${revision}/`)));
  return { verdict: checks.length ? specVerdictOf(checks) : 'not tested', rows: probed.map((s) => s.name) };
}

function agreementOf(audit: SpecVerdict | 'no probe', suite: SuiteVerdict): { agreement: Agreement; note: string } {
  const a = audit === 'violates' ? 'fail' : audit === 'conforms' ? 'pass' : null;
  const s = suite === 'fail' || suite === 'pass' ? suite : null;
  if (a && suite === 'false pass')
    return { agreement: a === 'fail' ? 'disagree' : 'audit only', note: `the suite's pass is a known false pass; the audit ${audit}` };
  if (a && s)
    return a === s
      ? { agreement: 'agree', note: '' }
      : { agreement: 'disagree', note: `the tools disagree: the audit ${audit}, the suite reads ${suite}` };
  if (a) return { agreement: 'audit only', note: '' };
  if (s) return { agreement: 'suite only', note: '' };
  return { agreement: 'neither judged', note: suite === 'false pass' ? "the suite's pass is a known false pass" : '' };
}

/** The merged lens of an audit's rows and the suite's runs (one per revision). */
export function mergeConformance(rows: readonly ScenarioResult[], runs: readonly SuiteRun[], suite: string): ConformanceLens {
  const requirements: MergedRequirement[] = [];
  const claimed = new Set<string>();
  for (const run of runs) {
    const checks = mergedChecks(run);
    for (const r of TRANSPORT_REQUIREMENTS) {
      if (r.binds === 'client' || !r.revisions.includes(run.revision)) continue;
      const refs = suiteRefs(r.suite);
      if (!refs.length) continue;
      const mine = checks.filter((c) => refs.some((ref) => matches(ref, c.scenario, c.check)));
      for (const c of mine) claimed.add(`${run.revision} ${c.scenario} ${c.check}`);
      const audit = auditSide(r, run.revision, rows);
      const verdict = suiteVerdictOf(mine);
      requirements.push({
        slug: r.slug,
        revision: run.revision,
        level: r.level,
        audit: audit.verdict,
        auditRows: audit.rows,
        suite: verdict,
        scored: mine.some((c) => c.scored),
        suiteChecks: mine,
        ...agreementOf(audit.verdict, verdict),
      });
    }
  }
  const all = runs.flatMap((run) => mergedChecks(run).map((c) => ({ ...c, revision: run.revision })));
  const suiteOnly = all.filter((c) => !claimed.has(`${c.revision} ${c.scenario} ${c.check}`));
  const scored = all.filter((c) => c.scored);
  const count = (v: SuiteVerdict) => scored.filter((c) => c.verdict === v).length;
  return {
    suite,
    runs: runs.map((r) => ({ revision: r.revision, command: r.command, scenarios: r.scenarios.length })),
    requirements,
    suiteOnly,
    counts: {
      pass: count('pass'),
      fail: count('fail'),
      falsePass: count('false pass'),
      notTestable: count('not testable'),
      warning: count('warning'),
      unscored: all.length - scored.length,
      disagree: requirements.filter((r) => r.agreement === 'disagree').length,
    },
    conforms: count('fail') === 0,
  };
}

/** A failing scored check of the suite, as a baseline entry (`--strict`): the suite's own `scenario:check` convention. */
export function suiteNonPasses(lens: ConformanceLens): { id: string; requirement: string; reason: string; upstream: string }[] {
  const all = [...lens.requirements.flatMap((r) => r.suiteChecks.map((c) => ({ ...c, revision: r.revision }))), ...lens.suiteOnly];
  const seen = new Set<string>();
  const out: { id: string; requirement: string; reason: string; upstream: string }[] = [];
  for (const c of all) {
    const id = `conformance ${c.revision} ${c.scenario}`;
    if (!c.scored || c.verdict !== 'fail' || seen.has(`${id} ${c.check}`)) continue;
    seen.add(`${id} ${c.check}`);
    out.push({ id, requirement: c.check, reason: '', upstream: '' });
  }
  return out;
}

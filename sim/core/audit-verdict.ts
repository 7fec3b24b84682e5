// The audit's verdict names, each with its meaning and what it does to the exit: data shared by the
// audits that decide them (server and client) and the reports and --help that print them (reports/
// may not import the audit, which drives real processes). A verdict is added here once; the summary,
// the exit and docs/auditing.md's legend follow from this table.

/** Every verdict a row of an audit can read, worst first within each kind. */
export const VERDICTS = [
  'silent',
  'stuck',
  'never settled',
  'loud',
  'broken without faults',
  'protocol hazard',
  'not tested',
  'not applicable',
  'pass',
] as const;
export type AuditVerdict = (typeof VERDICTS)[number];

/** What each verdict means, in one line: the legend of every output and of --help. */
export const VERDICT_MEANING: Readonly<Record<AuditVerdict, string>> = {
  silent: 'a call came back well-formed and wrong, or ran twice, with no error anywhere',
  stuck: 'an error the agent sees, and the session never recovers',
  'never settled': "a call still pending when the audit's watchdog ended the run (no timeout of the implementation's own fired)",
  loud: 'an error the agent sees, then recovery',
  'broken without faults': 'the fault-free run already fails: nothing under a fault can be judged',
  'protocol hazard': "the fault's effect is one the protocol revision gives the implementation no way to prevent",
  'not tested': 'the fault did not act on what the row judges, or the audit lacks a way to reach it (the row says which)',
  'not applicable': 'the requirement does not apply to this implementation',
  pass: 'the fault acted and the implementation handled it',
};

/** The verdicts that make the audit exit 1: a defect the run showed. The others exit 0 (a row that
 *  judged nothing is counted apart in the summary, never as a pass). */
const FAILING: ReadonlySet<AuditVerdict> = new Set(['silent', 'stuck', 'never settled', 'loud', 'broken without faults']);

/** Whether a printed verdict lets the audit exit 0. */
export function passes(v: AuditVerdict): boolean {
  return !FAILING.has(v);
}

/** Whether a row judged the implementation at all (the summary counts the others apart). */
export function judged(v: AuditVerdict): boolean {
  return v !== 'not tested' && v !== 'not applicable' && v !== 'broken without faults';
}

/** The exit rule in words, for --help and docs/auditing.md. */
export const EXIT_RULE = `exit 1 when any printed verdict is one of ${[...FAILING].join(', ')} (for a client row: its agent or its library verdict); 0 otherwise; 2 for bad input or an audit that could not run`;

/**
 * The spec lens's verdicts, beside the resilience verdict: the server conforms to the requirements
 * the scenario observes, violates one, was not tested on them (the scenario observes none, or the
 * run never reached the situation), does not implement an optional feature, or did something the
 * spec leaves open (recorded, never a violation).
 */
export const SPEC_VERDICTS = ['violates', 'conforms', 'optional, not implemented', 'unspecified', 'not tested'] as const;
export type SpecVerdict = (typeof SPEC_VERDICTS)[number];

/** One requirement judged on one scenario's run (audit/server/spec-lens.ts): what reports print and link. */
export interface SpecCheck {
  /** The requirement's id (audit/requirements.ts). */
  requirement: string;
  level: string;
  /** `2025-11-25 basic/transports.mdx § Session Management (MUST): "…"`. */
  quote: string;
  /** The published section. */
  url: string;
  verdict: SpecVerdict;
  /** What the run showed, in one line. */
  evidence: string;
}

/** A row's spec verdict from its checks, by SPEC_VERDICTS' order: a violation decides, then a conformance. */
export function specVerdictOf(checks: readonly { verdict: SpecVerdict }[]): SpecVerdict {
  for (const v of SPEC_VERDICTS) if (checks.some((c) => c.verdict === v)) return v;
  return 'not tested';
}

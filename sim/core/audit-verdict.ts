// The audit's verdict names: data shared by the audit that decides them and the reports that print
// them (reports/ may not import the audit, which drives real processes).
export const VERDICTS = ['pass', 'loud', 'stuck', 'silent', 'not applicable'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** pass, or n/a: the audit's exit 0. */
export function passes(v: Verdict): boolean {
  return v === 'pass' || v === 'not applicable';
}

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

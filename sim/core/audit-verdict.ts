// The audit's verdict names: data shared by the audit that decides them and the reports that print
// them (reports/ may not import the audit, which drives real processes).
export const VERDICTS = ['pass', 'loud', 'stuck', 'silent', 'not applicable'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** pass, or n/a: the audit's exit 0. */
export function passes(v: Verdict): boolean {
  return v === 'pass' || v === 'not applicable';
}

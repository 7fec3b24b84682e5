// The merged lens of `audit --conformance` as data: the audit's and the conformance suite's verdicts
// on each requirement both can judge, and the suite's other checks. Its own file so that the audit's
// result (audit-row.ts) can carry it without importing the merge, which reads the audit's rows.
import type { Revision } from '../../../models/policies.ts';
import type { SpecVerdict } from '../../core/audit-verdict.ts';
import type { SuiteStatus } from './suite-output.ts';

/** The suite's verdict on one check or requirement: a known false pass is never a pass. */
export type SuiteVerdict = 'pass' | 'fail' | 'false pass' | 'not testable' | 'warning' | 'not run';

/** Whether the two tools' verdicts agree, where both judged. */
export type Agreement = 'agree' | 'disagree' | 'audit only' | 'suite only' | 'neither judged';

export interface MergedCheck {
  scenario: string;
  check: string;
  status: SuiteStatus;
  verdict: SuiteVerdict;
  scored: boolean;
  /** The suite's message; for a false pass, why it is one. */
  why: string;
}

export interface MergedRequirement {
  slug: string;
  revision: Revision;
  level: string;
  /** The spec verdict of the audit's probes of it, or `no probe` where the audit has none (or none was run). */
  audit: SpecVerdict | 'no probe';
  auditRows: string[];
  suite: SuiteVerdict;
  /** The suite scores at least one of its checks for this revision. */
  scored: boolean;
  suiteChecks: MergedCheck[];
  agreement: Agreement;
  /** One line: the disagreement or the false pass, in words ('' where there is nothing to say). */
  note: string;
}

export interface ConformanceLens {
  /** `@modelcontextprotocol/conformance 0.2.0-alpha.12`. */
  suite: string;
  runs: { revision: Revision; command: string; scenarios: number }[];
  requirements: MergedRequirement[];
  /** The suite's checks that no requirement of the table names: what the suite judges and the audit does not. */
  suiteOnly: (MergedCheck & { revision: Revision })[];
  counts: { pass: number; fail: number; falsePass: number; notTestable: number; warning: number; unscored: number; disagree: number };
  /** No scored check of the suite fails (what `--strict` also requires, beside the audit's own lens). */
  conforms: boolean;
}

// One row of an audit (a scenario or a probe, of a server or a client audit), and the audit's whole
// result: what every report renders. Its own file so that the runner and the probes both build a row,
// and the server and client runners both return a result, without importing each other.
import type { Revision } from '../../models/policies.ts';
import type { SpecCheck, SpecVerdict, AuditVerdict } from '../core/audit-verdict.ts';
import type { LibraryVerdict } from './client-library.ts';
import type { ConformanceLens } from './conformance/lens.ts';

export interface ScenarioResult {
  name: string;
  asks: string;
  verdict: AuditVerdict;
  /** Why the verdict, in one line (the oracle that decided it, or why not applicable). */
  why: string;
  /** One line from the history: status codes, Content-Type, errors, virtual times. */
  evidence: string;
  plan: string;
  judgedBy: readonly string[];
  /** Command lines: `audit` re-runs exactly this plan; `check --wire` searches its fault family ('' for a probe). */
  reproduce: { audit: string; check: string };
  /** What the scenario's fault changed at the server or on the way back, or why it changed nothing (acted.ts). */
  acted?: string;
  /** For a scenario that needs a side-effecting call: the tool it called, and why that one. */
  tool?: string;
  /** A client audit's run: the revision the harness spoke. */
  revision?: Revision;
  /** A client audit: what the library did with the agent loop off (client-library.ts). */
  library?: LibraryResult;
  /** The spec lens: the requirements this scenario observes, each judged (absent where no lens ran). */
  spec?: { verdict: SpecVerdict; checks: SpecCheck[] };
  /** The same plan with the spec-literal client (spec-client.ts), where it is another client than the model's. */
  literal?: { verdict: AuditVerdict; why: string; evidence: string };
}

export interface AuditResult {
  /** Set when a client was audited (its command line); `server` is then the constant side. */
  client?: string;
  server: string;
  revisions: readonly Revision[];
  scenarios: ScenarioResult[];
  pending: readonly { name: string; why: string }[];
  passed: boolean;
  /** No spec check reads `violates` (what `--strict` also requires); absent where no spec lens ran. */
  conforms?: boolean;
  /** A real server's tools as called (tool-choice.ts), in one line. */
  tools?: string;
  /** A real server: the revisions it was found to speak, and how (server/revisions.ts), in one line. */
  revisionsFound?: string;
  /** `--conformance`: the official suite's checks, merged with the spec lens by requirement (conformance/merge.ts). */
  conformance?: ConformanceLens;
  /** A real server: the exact version it negotiated for each of `revisions`, in order (2025-06-18 where
   *  it answered initialize 2025-11-25 with that); absent where the server is in-process and says itself. */
  speaks?: readonly string[];
}

/** The library's verdict as a client audit reports it (behaviour `not applicable`, verdict `not tested`,
 *  when its run tested nothing). */
export type LibraryResult = Omit<LibraryVerdict, 'behaviour'> & {
  behaviour: LibraryVerdict['behaviour'] | 'not applicable';
  evidence: string;
};

// `audit --conformance`: the official conformance suite as a component of a server audit (issue 37
// item 8). Found before anything starts (a missing install is one line with the command that installs
// it, exit 2); run once per revision the audit audits, against the same server, through the relay that
// adds the credentials (audit/conformance/relay.ts); its checks merged into the spec lens by
// requirement (audit/conformance/merge.ts). One report, one exit: a scored check the suite fails
// counts as a spec violation (exit 1 with --strict, like the audit's own lens), and --baseline and
// --write-baseline list it beside the audit's rows.
import type { AuditResult } from '../../audit/audit-row.ts';
import { findSuite, SUITE_PACKAGE, SuiteMissing, type SuiteInstall } from '../../audit/conformance/install.ts';
import { mergeConformance } from '../../audit/conformance/merge.ts';
import { runSuite } from '../../audit/conformance/run-suite.ts';
import { SuiteOutputError, type SuiteRun } from '../../audit/conformance/suite-output.ts';
import type { WireServerSpec } from '../../wire/setup.ts';
import type { Revision } from '../../../models/policies.ts';
import type { OptionSpec } from '../args.ts';
import { UsageError } from '../errors.ts';

const SERVER_ONLY = 'the conformance suite tests servers';

export const CONFORMANCE_OPTION: OptionSpec = {
  value: false,
  help: `also run the official conformance suite (${SUITE_PACKAGE}, pinned, from .ci/conformance) with --requirements of each revision audited, through a loopback relay that adds --header/--header-env; its checks are merged into the spec lens by requirement, its known false passes marked`,
  needs: ['serve', 'target'],
  conflicts: [
    { option: 'client-cmd', why: SERVER_ONLY },
    { option: 'clients', why: SERVER_ONLY },
  ],
};

/** The installed suite, or a UsageError (exit 2) that names the install command. */
export function conformanceSuite(): SuiteInstall {
  try {
    return findSuite();
  } catch (e) {
    if (e instanceof SuiteMissing) throw new UsageError(e.message);
    throw e;
  }
}

/** The suite's runs against the audited server, one per revision; a run that did not happen is a UsageError (exit 2). */
export async function conformanceRuns(
  install: SuiteInstall,
  server: Extract<WireServerSpec, { kind: 'loopback' }>,
  revisions: readonly Revision[],
): Promise<SuiteRun[]> {
  const { endpoint } = server;
  try {
    return await runSuite(install, endpoint.liveUrl?.() ?? endpoint.url, endpoint.upstream, revisions);
  } catch (e) {
    if (e instanceof SuiteOutputError) throw new UsageError(`audit --conformance: ${e.message}`);
    throw e;
  }
}

/** The audit's result with the suite's checks merged in: the lens, and `conforms` over both tools. */
export function withConformance<A extends AuditResult>(result: A, runs: readonly SuiteRun[], install: SuiteInstall): A {
  const lens = mergeConformance(result.scenarios, runs, `${SUITE_PACKAGE} ${install.version}`);
  return { ...result, conformance: lens, conforms: (result.conforms ?? true) && lens.conforms };
}

// The conformance suite's known false passes (0.2.0-alpha.12), found by running it and reading its
// source (notes in docs/auditing.md § The official conformance suite): a SUCCESS that does not show
// what the check claims. The merge marks each `false pass` with the reason, and never counts it as a
// pass. A tool scenario calls a fixture tool (`test_simple_text`, …); a server without it answers
// `isError: true` "Tool … not found", and `tools-call-simple-text`/`tools-call-error` accept that
// (conformance#515). The DNS-rebinding check accepts any 4xx (conformance PR #115): a 401 shows
// authentication, a 400 "Server not initialized" a missing session, neither an Origin check, and the
// spec's answer to an invalid Origin is 403. The mirror image: a FAILURE whose call met "Tool/Prompt/
// Resource … not found" judged the suite's missing fixture, not the server: `not testable`.
import type { SuiteCheck } from './suite-output.ts';

/** Why a SUCCESS is a known false pass, or null where it is a pass. */
export function falsePass(scenario: string, check: SuiteCheck): string | null {
  if (check.status !== 'SUCCESS') return null;
  const details = check.details ?? {};
  if (scenario.startsWith('tools-call-')) {
    const result = details.result as { isError?: unknown } | undefined;
    const text = JSON.stringify(details);
    if (result?.isError === true && /not found|unknown tool/i.test(text))
      return 'the tool the scenario calls does not exist on this server, and the suite counted its "not found" error as a pass (conformance#515)';
  }
  if (check.id === 'localhost-host-rebinding-rejected') {
    const status = details.statusCode;
    if (typeof status === 'number' && status !== 403)
      return `the foreign Host/Origin got ${status}, which the suite counts as protection (any 4xx)${status === 401 ? ': a 401 shows authentication, not Origin validation' : ''}; the spec requires 403 for an invalid Origin`;
  }
  return null;
}

/** Why a FAILURE judged only that the server lacks the suite's fixture (a tool, prompt or resource it names), or null. */
export function missingFixture(check: SuiteCheck): string | null {
  if (check.status !== 'FAILURE') return null;
  const m = /(Tool|Prompt|Resource) '?([\w:/.-]+)'? not found/.exec(`${check.message} ${JSON.stringify(check.details ?? {})}`);
  return m
    ? `the server has no ${m[1]!.toLowerCase()} ${m[2]} (a fixture of the suite's own test server): nothing of this server was judged`
    : null;
}

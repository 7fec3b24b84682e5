// The conformance suite's known false passes (0.2.0-alpha.12), found by running it and reading its
// source (notes in docs/auditing.md § The official conformance suite): a SUCCESS that does not show
// what the check claims. The merge marks each `false pass` with the reason, and never counts it as a
// pass. A tool scenario calls a fixture tool (`test_simple_text`, …); a server without it answers
// `isError: true` "Tool … not found", and `tools-call-simple-text`/`tools-call-error` accept that
// (conformance#515). The DNS-rebinding check accepts any 4xx (conformance PR #115): a 401 shows
// authentication, a 400 "Server not initialized" a missing session, neither an Origin check, and the
// spec's answer to an invalid Origin is 403. The mirror image: a FAILURE whose call met "Tool/Prompt/
// Resource … not found" judged the suite's missing fixture, not the server: `not testable`; so does one
// the suite itself calls "Not testable", and one answered -32601 (a capability the server does not offer).
import type { SuiteCheck } from './suite-output.ts';

/** The fixture tool a server scenario calls (the suite's own test server has them; read in its 0.2.0-alpha.12 dist):
 *  every tool scenario of 2025-11-25, and those of 2026-07-28 whose tool was confirmed there. */
export const FIXTURE_TOOLS: Readonly<Record<string, string>> = {
  'tools-call-simple-text': 'test_simple_text',
  'tools-call-image': 'test_image_content',
  'tools-call-audio': 'test_audio_content',
  'tools-call-embedded-resource': 'test_embedded_resource',
  'tools-call-mixed-content': 'test_multiple_content_types',
  'tools-call-with-logging': 'test_tool_with_logging',
  'tools-call-error': 'test_error_handling',
  'tools-call-with-progress': 'test_tool_with_progress',
  'tools-call-sampling': 'test_sampling',
  'tools-call-elicitation': 'test_elicitation',
  'elicitation-sep1034-defaults': 'test_elicitation_sep1034_defaults',
  'elicitation-sep1330-enums': 'test_elicitation_sep1330_enums',
  'input-required-result-multi-round': 'test_input_required_result_multi_round',
};

/** The scenario's fixture tool where the server's tools/list (as the suite saw it) lacks it, else null. */
function absentTool(scenario: string, serverTools: readonly string[] | null): string | null {
  const tool = FIXTURE_TOOLS[scenario];
  return tool !== undefined && serverTools !== null && !serverTools.includes(tool) ? tool : null;
}

/** Why a SUCCESS is a known false pass, or null where it is a pass. */
export function falsePass(scenario: string, check: SuiteCheck, serverTools: readonly string[] | null): string | null {
  if (check.status !== 'SUCCESS') return null;
  const details = check.details ?? {};
  const absent = check.id === scenario ? absentTool(scenario, serverTools) : null;
  if (absent)
    return `the server has no tool ${absent}, which the scenario calls; the suite counted the call's error as a pass (conformance#515)`;
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
export function missingFixture(scenario: string, check: SuiteCheck, serverTools: readonly string[] | null): string | null {
  if (check.status !== 'FAILURE') return null;
  const absent = check.id !== 'wire-schema-valid' ? absentTool(scenario, serverTools) : null;
  if (absent) return `the server has no tool ${absent} (a fixture of the suite's own test server): nothing of this server was judged`;
  // The suite's own words for a check it could not make.
  if (/^(Not testable|Prerequisite failed)/.test(check.message)) return `the suite says it could not test this: ${check.message}`;
  // A feature the server does not offer (prompts, resources, completions, logging are optional capabilities).
  if (/Method not found|-32601/.test(check.message))
    return `the server answers Method not found (-32601): a feature it does not offer, which the suite's scenario needs (${check.message})`;
  const m = /(Tool|Prompt|Resource) '?([\w:/.-]+)'? not found/.exec(`${check.message} ${JSON.stringify(check.details ?? {})}`);
  return m
    ? `the server has no ${m[1]!.toLowerCase()} ${m[2]} (a fixture of the suite's own test server): nothing of this server was judged`
    : null;
}

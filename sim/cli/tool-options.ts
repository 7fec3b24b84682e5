// Which of a real server's tools a run calls, as the command line says it: the one definition of
// `--tools SET`, `--call TOOL [--args JSON]` and the audit's `--slow-call TOOL [--args JSON]`, shared by
// `audit` and `check --wire`, and the one parser that reads them into a ToolRequest
// (audit/server/tool-choice.ts decides from it and the server's tools/list). Read once, before anything
// starts: a JSON mistake in --args is bad input, not a failed run.
import type { NamedCall, ToolRequest } from '../audit/server/tool-choice.ts';
import { TOOL_PRESETS, type ToolMap, type ToolPresetName } from '../wire/protocol/tool-maps.ts';
import { stringOption, type OptionSpec, type Parsed } from './args.ts';
import { UsageError } from './errors.ts';
import { quote } from './wire-server.ts';

const PRESETS = Object.entries(TOOL_PRESETS)
  .map(([name, t]) => `${name} (${t.plain.name}, ${t.progress.name})`)
  .join(' or ');

/** `--tools`, `--call`, `--args`; `byDefault` says what the command calls when neither --tools nor --call is given. */
export function toolOptions(byDefault: string): Record<string, OptionSpec> {
  return {
    tools: {
      value: true,
      arg: 'SET',
      help: `a preset tool set instead of the server's own tools: ${PRESETS}; with neither --tools nor --call, ${byDefault}`,
      needs: ['target', 'serve'],
      conflicts: ['call'],
    },
    call: {
      value: true,
      repeatable: true,
      arg: 'TOOL',
      help: "call the server's own tool TOOL (repeatable)",
      needs: ['target', 'serve'],
      nonEmpty: 'a tool name',
    },
    args: {
      value: true,
      repeatable: true,
      arg: 'JSON',
      help: 'the arguments of the tool named just before it, a JSON object',
      needs: ['target', 'serve'],
    },
  };
}

/** The audit's `--slow-call`: for the close-cancels probe, a slow tool with a visible effect. */
export const SLOW_CALL_OPTION: OptionSpec = {
  value: true,
  repeatable: true,
  arg: 'TOOL',
  help: 'for close-cancels, a slow tool with a visible effect (its stream is closed while it runs; the read-only --call tool shows whether its work landed)',
  needs: ['target', 'serve'],
  nonEmpty: 'a tool name',
};

/** The tools of `--tools`, the default preset when none is named. */
export function presetTools(request: ToolRequest): ToolMap {
  return TOOL_PRESETS[request.preset ?? 'everything'];
}

/** `--tools`, and the `--call A --args J --slow-call B …` pairs in command-line order: each `--args` belongs to the tool named just before it. */
export function toolRequest(args: Parsed): ToolRequest {
  const preset = stringOption(args, 'tools');
  if (preset !== undefined && !Object.hasOwn(TOOL_PRESETS, preset))
    throw new UsageError(`unknown --tools '${preset}' (valid: ${Object.keys(TOOL_PRESETS).join(', ')})`);
  const calls: (NamedCall & { given: boolean })[] = [];
  for (const [option, value] of args.repeated) {
    if (option === 'call' || option === 'slow-call') {
      if (option === 'slow-call' && calls.some((c) => c.slow)) throw new UsageError('--slow-call is given twice (the probe calls one)');
      calls.push({ name: value, args: {}, given: false, ...(option === 'slow-call' ? { slow: true as const } : {}) });
    } else if (option === 'args') {
      const last = calls.at(-1);
      if (!last) throw new UsageError('--args must follow the --call it is for');
      const flag = last.slow ? '--slow-call' : '--call';
      if (last.given) throw new UsageError(`--args is given twice for ${flag} ${last.name}`);
      last.args = jsonObject(value, `${flag} ${last.name}`);
      last.given = true;
    }
  }
  return { ...(preset !== undefined ? { preset: preset as ToolPresetName } : {}), calls: calls.map(({ given: _, ...c }) => c) };
}

function jsonObject(text: string, of: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--args for ${of} is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`--args for ${of} must be a JSON object, not ${JSON.stringify(parsed)}`);
  return parsed as Record<string, unknown>;
}

/** The calls as a reproduce line gives them again (the preset rides with the server's flags: wire-check.ts `wireSideArgs`). */
export function callFlags(request: ToolRequest): string[] {
  return request.calls.flatMap((c) => [
    `--${c.slow ? 'slow-call' : 'call'} ${quote(c.name)}`,
    ...(Object.keys(c.args).length ? [`--args ${quote(JSON.stringify(c.args))}`] : []),
  ]);
}

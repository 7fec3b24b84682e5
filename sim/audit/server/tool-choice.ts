// Which of a real server's own tools the audit calls, decided once from its `tools/list`
// (wire/process/discover-tools.ts) and what the user named: `--call NAME --args JSON` pairs, a preset of
// tool sets (`--tools everything|faultsim`), or, with neither, a tool the server annotates
// `readOnlyHint: true` or `idempotentHint: true` (safe to call again and again). The audit never
// calls an unannotated tool on its own: a tool with a side effect runs only when the user names it,
// and then it is the tool of the scenarios that judge `at-most-once` (a duplicate run of it is what
// they look for). Arguments are checked against the tool's input schema (the SDK's own Ajv
// validator) before anything runs; a miss is bad input with the schema quoted. `--slow-call NAME`
// names a slow tool with a visible effect for the close-cancels probe (probes.ts): its stream is
// closed while it runs, and the answer of the read-only tool shows whether its work still landed.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { DiscoveredTool } from '../../wire/process/discover-tools.ts';
import { TOOL_PRESETS, type ToolMap, type ToolPresetName, type ToolSpec } from '../../wire/protocol/tool-maps.ts';

/** A tool choice that cannot stand: one line for the user (exit 2). */
export class ToolChoiceError extends Error {
  override name = 'ToolChoiceError';
}

export interface NamedCall {
  name: string;
  args: Record<string, unknown>;
  /** Given as `--slow-call`: the close-cancels probe's tool, not a tool of the scenarios. */
  slow?: true;
}

export interface ToolChoice {
  tools: ToolMap;
  /** The tool the at-most-once scenarios call, and why it is the one; null: none was named. */
  sideEffect: { tool: ToolSpec; why: string } | null;
  /** One line: what is called, and why. */
  said: string;
  /** Results are compared by shape, not text (result-shape.ts): the server's own tools, whose answers vary. */
  byShape: boolean;
  /** The close-cancels probe's slow tool (`--slow-call`) and the tool whose answer shows its effect; null: none named. */
  slow: { tool: ToolSpec; read: ToolSpec } | null;
}

/** What the user asked of a real server's tools: a preset by name (`--tools`), or its own tools by name
 *  (`--call`/`--args`, `--slow-call`) in command-line order; neither: the choice is made from its tools/list. */
export interface ToolRequest {
  preset?: ToolPresetName;
  calls: readonly NamedCall[];
}

const safe = (t: DiscoveredTool | undefined) => t?.annotations?.readOnlyHint === true || t?.annotations?.idempotentHint === true;
const hint = (t: DiscoveredTool | undefined) =>
  t?.annotations?.readOnlyHint === true ? 'readOnlyHint: true' : t?.annotations?.idempotentHint === true ? 'idempotentHint: true' : null;
const spec = (c: NamedCall): ToolSpec => ({ name: c.name, args: () => c.args });
const shown = (args: Record<string, unknown>) => JSON.stringify(args);

/** A schema as one quoted line (cut at 600 characters). */
export function quoteSchema(schema: unknown): string {
  const text = JSON.stringify(schema ?? {});
  return text.length > 600 ? `${text.slice(0, 599)}…` : text;
}

const validator = new AjvJsonSchemaValidator();

function checkArgs(tool: DiscoveredTool, args: Record<string, unknown>, given: boolean): void {
  const schema = (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const missing = required.filter((k) => !(k in args));
  if (missing.length)
    throw new ToolChoiceError(
      `tool '${tool.name}' needs argument${missing.length > 1 ? 's' : ''} ${missing.join(', ')}${given ? '' : ' (no --args given)'}; its input schema: ${quoteSchema(schema)}; give --call ${tool.name} --args '{…}'`,
    );
  let check: ReturnType<typeof validator.getValidator>;
  try {
    check = validator.getValidator(schema as never);
  } catch {
    return; // a schema Ajv cannot compile: the server is the judge of its own arguments
  }
  const r = check(args);
  if (!r.valid)
    throw new ToolChoiceError(
      `--args for tool '${tool.name}' do not fit its input schema (${r.errorMessage}); its input schema: ${quoteSchema(schema)}`,
    );
}

function presetChoice(name: ToolPresetName, how: string): ToolChoice {
  const tools: ToolMap = TOOL_PRESETS[name];
  const why = `the plain tool of the ${name} preset`;
  return {
    tools,
    byShape: false,
    sideEffect: { tool: tools.plain, why },
    said: `tools: the ${name} preset (${tools.plain.name}, ${tools.progress.name}), ${how}`,
    slow: null,
  };
}

/** The choice from what the user asked for and what the server lists. */
export function chooseTools(discovered: readonly DiscoveredTool[], request: ToolRequest): ToolChoice {
  const choice = chooseCalls(
    discovered,
    request.calls.filter((c) => !c.slow),
    request.preset,
  );
  const slow = request.calls.find((c) => c.slow);
  if (!slow) return choice;
  const tool = discovered.find((t) => t.name === slow.name);
  if (!tool)
    throw new ToolChoiceError(
      `--slow-call ${slow.name}: the server has no such tool (its tools: ${listOf(discovered.map((t) => t.name))})`,
    );
  checkArgs(tool, slow.args, Object.keys(slow.args).length > 0);
  return {
    ...choice,
    slow: { tool: spec(slow), read: choice.tools.plain },
    said: `${choice.said}; ${slow.name} ${shown(slow.args)} (--slow-call) where close-cancels closes a stream, read back with ${choice.tools.plain.name}`,
  };
}

const listOf = (names: readonly string[]) => (names.length ? names.slice(0, 12).join(', ') + (names.length > 12 ? ', …' : '') : 'none');

function chooseCalls(discovered: readonly DiscoveredTool[], calls: readonly NamedCall[], preset?: ToolPresetName): ToolChoice {
  const names = discovered.map((t) => t.name);
  const listed = listOf(names);
  if (preset !== undefined) return presetChoice(preset, 'as --tools says');
  if (calls.length) {
    const byName = new Map(discovered.map((t) => [t.name, t]));
    for (const c of calls) {
      const tool = byName.get(c.name);
      if (!tool) throw new ToolChoiceError(`--call ${c.name}: the server has no such tool (its tools: ${listed})`);
      checkArgs(tool, c.args, Object.keys(c.args).length > 0);
    }
    const plain = calls.find((c) => safe(byName.get(c.name))) ?? calls[0]!;
    const effect = calls.find((c) => !safe(byName.get(c.name)));
    const plainWhy = hint(byName.get(plain.name)) ?? 'named first, not annotated read-only or idempotent';
    const sideEffect = effect
      ? { tool: spec(effect), why: 'named by --call and not annotated readOnlyHint/idempotentHint: a tool with a side effect' }
      : null;
    const said =
      `tools: ${plain.name} ${shown(plain.args)} (${plainWhy}) for every call` +
      (effect ? `; ${effect.name} ${shown(effect.args)} (a side effect) where at-most-once is judged` : '');
    return { tools: { plain: spec(plain), progress: spec(plain) }, sideEffect, said, byShape: true, slow: null };
  }
  for (const [p, tools] of Object.entries(TOOL_PRESETS))
    if ([tools.plain.name, tools.progress.name].every((n) => names.includes(n)))
      return presetChoice(p as ToolPresetName, 'found in its tools/list');
  const annotated = discovered.filter(safe);
  if (!annotated.length)
    throw new ToolChoiceError(
      `no tool of the server is annotated readOnlyHint or idempotentHint, and the audit calls no other on its own: name one with --call NAME --args JSON (its tools: ${listed})`,
    );
  const needsNothing = annotated.find((t) => {
    const required = (t.inputSchema as { required?: unknown } | undefined)?.required;
    return !Array.isArray(required) || required.length === 0;
  });
  if (!needsNothing) {
    const t = annotated[0]!;
    checkArgs(t, {}, false);
  }
  const t = needsNothing!;
  return {
    tools: { plain: spec({ name: t.name, args: {} }), progress: spec({ name: t.name, args: {} }) },
    sideEffect: null,
    byShape: true,
    slow: null,
    said: `tools: ${t.name} {} (${hint(t)}, chosen from its tools/list; --call names another) for every call`,
  };
}

// `mcp-faultsim replay FILE`: re-run a saved counterexample, print its history step by step, and
// say whether everything it recorded happened again.
import { readFileSync } from 'node:fs';
import { describeEntry, stepLine } from '../../../reports/history-text.ts';
import { BadCounterexample } from '../../corpus/counterexample-file.ts';
import { parseCounterexample } from '../../corpus/counterexample-parse.ts';
import { describePlan } from '../../core/plan.ts';
import { replay } from '../../corpus/replay.ts';
import { describeWorkload } from '../../core/workload.ts';
import { formatCombination } from '../../../models/policies.ts';
import { helpText, parseArgs, type OptionSpec } from '../args.ts';
import { POLICIES_OPTION, policiesOption } from '../common-options.ts';
import { EXIT, UsageError } from '../errors.ts';

const OPTIONS: Record<string, OptionSpec> = {
  policies: POLICIES_OPTION,
  quiet: { value: false, help: 'print only the verdict, not the history' },
  help: { value: false, help: 'show this help' },
};

export async function runReplay(argv: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const args = parseArgs(argv, OPTIONS, 'replay');
  if (args.options.help) {
    out.write(
      helpText(
        'mcp-faultsim replay FILE [--policies FILE,…] [--quiet]',
        "Re-run a saved counterexample (a file from compare's counterexamples/ or from check --save), print\nits history step by step, and check that the same history, call outcomes and verdicts come back.",
        OPTIONS,
        '\nexit status: 0 reproduced identically, 1 not reproduced (the differences are printed), 2 a missing,\nmalformed, truncated or wrong-version file, or a policy it names that is not loaded.',
      ),
    );
    return EXIT.ok;
  }
  if (args.positionals.length !== 1) throw new UsageError(`replay takes one counterexample file, not ${args.positionals.length}`);
  const path = args.positionals[0]!;
  const registry = await policiesOption(args);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`replay ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    const file = parseCounterexample(text);
    const result = replay(file, registry);
    const outcomes = new Map(file.expected.outcomes.map((o) => [o.callId, o.outcome]));
    const lines = [
      `counterexample ${file.id}${file.cell ? ` (${file.cell})` : ''}, saved by ${file.tool.name} ${file.tool.version}`,
      `  ${formatCombination(file.combination)}`,
      `  faults    ${describePlan(file.plan)}`,
      `  workload  ${describeWorkload(file.workload)}${file.schedule.length ? `  (schedule ${file.schedule.join(',')})` : ''}`,
      '',
    ];
    if (!args.options.quiet) lines.push(...result.history.map((e) => stepLine(describeEntry(e, outcomes))), '');
    for (const v of result.verdicts)
      lines.push(`${v.property}: ${v.actual === 'holds' ? 'holds' : v.property === 'policy-error' ? v.actual : `violated: ${v.actual}`}`);
    if (result.reproduced) lines.push(`reproduced identically (${result.history.length} steps)`);
    else lines.push('NOT reproduced:', ...result.differences.map((d) => `  ${d}`));
    out.write(`${lines.join('\n')}\n`);
    return result.reproduced ? EXIT.ok : EXIT.violated;
  } catch (e) {
    if (e instanceof BadCounterexample) throw new UsageError(`replay ${path}: ${e.message}`);
    throw e;
  }
}

export const command = {
  name: 'replay',
  run: runReplay,
};

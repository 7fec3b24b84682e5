// Command-line options through node:util's parseArgs: `--name value`, `--name=value`, boolean
// `--name`, and positionals (everything after `--` too). Strict in our own words: an option the
// command does not declare is an error that names the valid ones, a switch given a value or an
// option missing its value is one line. parseArgs runs non-strict and its tokens are checked here,
// so that a value may start with a dash (`--seed -3` reaches the range check, as before). The rules
// between options (needs, conflicts, …) are declared in the same table and checked once parsed
// (option-rules.ts), except under --help, which explains them instead.
import { parseArgs as parseArgv } from 'node:util';
import { UsageError } from './errors.ts';
import { checkRules, checkTable, rulesText, type OptionRules } from './option-rules.ts';

export interface OptionSpec extends OptionRules {
  /** Takes a value (`--seed 3`) or is a switch (`--json`). */
  value: boolean;
  help: string;
  /** Shown in --help for options that take a value. */
  arg?: string;
  /** May be given more than once (`--header A --header B`): every value is kept, in order, in `Parsed.repeated`. */
  repeatable?: boolean;
}

export interface Parsed {
  options: Record<string, string | true>;
  positionals: string[];
  /** The repeatable options' values in command-line order, as [name, value] (pairs like `--call A --args J` stay together). */
  repeated: [string, string][];
}

export function parseArgs(argv: readonly string[], spec: Record<string, OptionSpec>, command: string): Parsed {
  checkTable(spec, command);
  const options = Object.fromEntries(
    Object.entries(spec).map(([name, s]) => [name, { type: s.value ? ('string' as const) : ('boolean' as const) }]),
  );
  const { tokens } = parseArgv({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const parsed: Parsed = { options: {}, positionals: [], repeated: [] };
  for (const token of tokens) {
    if (token.kind === 'positional') parsed.positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const s = spec[token.name];
    if (!s || token.rawName !== `--${token.name}`) {
      const valid = Object.keys(spec)
        .map((k) => `--${k}`)
        .join(', ');
      throw new UsageError(`${command}: unknown option '${token.rawName}' (valid: ${valid})`);
    }
    if (!s.value) {
      if (token.inlineValue) throw new UsageError(`${command}: --${token.name} takes no value`);
      parsed.options[token.name] = true;
      continue;
    }
    if (token.value === undefined) throw new UsageError(`${command}: --${token.name} needs a value (${s.arg ?? 'value'})`);
    parsed.options[token.name] = token.value;
    if (s.repeatable) parsed.repeated.push([token.name, token.value]);
  }
  if (!parsed.options.help) checkRules(parsed, spec, command);
  return parsed;
}

export function intOption(parsed: Parsed, name: string, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const raw = parsed.options[name];
  if (raw === undefined) return fallback;
  if (raw === true || !/^-?[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not '${raw === true ? '' : raw}'`);
  }
  return Number(raw);
}

/** Every value of a repeatable option, in order. */
export function listOption(parsed: Parsed, name: string): string[] {
  return parsed.repeated.filter(([n]) => n === name).map(([, v]) => v);
}

export function stringOption(parsed: Parsed, name: string): string | undefined {
  const raw = parsed.options[name];
  return raw === true ? undefined : raw;
}

export function helpText(usage: string, summary: string, spec: Record<string, OptionSpec>, extra = ''): string {
  const rows = Object.entries(spec).map(([k, s]) => {
    const rules = rulesText(spec, k);
    return [`--${k}${s.value ? ` ${s.arg ?? 'VALUE'}` : ''}`, rules ? `${s.help} [${rules}]` : s.help] as const;
  });
  const width = Math.max(...rows.map(([a]) => a.length));
  const text = [`usage: ${usage}`, '', summary, '', 'options:', ...rows.map(([a, h]) => `  ${a.padEnd(width)}  ${h}`), extra].join('\n');
  return `${text.trimEnd()}\n`;
}

// A small, strict argument parser: `--name value`, `--name=value`, boolean `--name`, and
// positionals. An option the command does not declare is an error that names the valid ones.
import { UsageError } from './errors.ts';

export interface OptionSpec {
  /** Takes a value (`--seed 3`) or is a switch (`--json`). */
  value: boolean;
  help: string;
  /** Shown in --help for options that take a value. */
  arg?: string;
}

export interface Parsed {
  options: Record<string, string | true>;
  positionals: string[];
}

export function parseArgs(argv: readonly string[], spec: Record<string, OptionSpec>, command: string): Parsed {
  const options: Record<string, string | true> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--') || arg === '--') {
      if (arg !== '--') positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const s = spec[name];
    if (!s) {
      const valid = Object.keys(spec).map((k) => `--${k}`).join(', ');
      throw new UsageError(`${command}: unknown option '--${name}' (valid: ${valid})`);
    }
    if (!s.value) {
      if (eq >= 0) throw new UsageError(`${command}: --${name} takes no value`);
      options[name] = true;
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`${command}: --${name} needs a value (${s.arg ?? 'value'})`);
    options[name] = value;
  }
  return { options, positionals };
}

export function intOption(parsed: Parsed, name: string, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const raw = parsed.options[name];
  if (raw === undefined) return fallback;
  if (raw === true || !/^-?[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not '${raw === true ? '' : raw}'`);
  }
  return Number(raw);
}

export function stringOption(parsed: Parsed, name: string): string | undefined {
  const raw = parsed.options[name];
  return raw === true ? undefined : raw;
}

export function helpText(usage: string, summary: string, spec: Record<string, OptionSpec>, extra = ''): string {
  const rows = Object.entries(spec).map(([k, s]) => [`--${k}${s.value ? ` ${s.arg ?? 'VALUE'}` : ''}`, s.help] as const);
  const width = Math.max(...rows.map(([a]) => a.length));
  return [`usage: ${usage}`, '', summary, '', 'options:', ...rows.map(([a, h]) => `  ${a.padEnd(width)}  ${h}`), extra].join('\n').trimEnd() + '\n';
}

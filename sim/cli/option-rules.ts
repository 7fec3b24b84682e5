// The rules between a command's options, declared beside each option in the table that parses and
// explains them (args.ts `OptionSpec`): one checker applies them after parsing and gives the one line a
// user reads, and `--help` prints each option's rules in the same words. A command never writes
// "--x needs --y" by hand: the table is the one place a rule lives (test/sim/cli/option-rules.test.ts
// fails on a hand-written one).
import { UsageError } from './errors.ts';

/** What one option asks of the others. Each kind has one message (checkRules) and one phrase in --help (rulesText). */
export interface OptionRules {
  /** Only in the mode this switch turns on (check's wire options: `--wire`); checked before its other rules. */
  mode?: string;
  /** Only with one of these (`['target', 'serve']`: either will do). */
  needs?: readonly string[];
  /** Never with these. */
  conflicts?: readonly Conflict[];
  /** One of alternatives that share this group name (where the server is: --server, --serve, --target): at most one is given. */
  oneOf?: string;
  /** Must be given (in a group: one of the group must be), unless one of `unless` is. */
  required?: true | { unless: readonly string[] };
  /** Its value may not be blank; what it must name (`'a command'`: "--client-cmd needs a command"). */
  nonEmpty?: string;
  /** Some of its values need another option (check's `--client sdk` is real code: it needs --wire). */
  valuesNeed?: { are: string; test: (value: string) => boolean; needs: string };
}

/** Another option this one never goes with: by name, or with why (said in the message) and only while `when` is given too. */
export type Conflict = string | { option: string; why?: string; when?: string };

/** A command's option table as the rules read it (`arg`: what a required option's message asks for). */
type Table = Readonly<Record<string, OptionRules & { arg?: string }>>;
/** What parsing gave: the last value of each option, and every value of a repeatable one. */
interface Given {
  options: Readonly<Record<string, string | true>>;
  repeated: readonly (readonly [string, string])[];
}

const flag = (name: string) => `--${name}`;
/** `--a`, `--a or --b`, `--a, --b or --c`. */
export const orList = (names: readonly string[]) =>
  names.length < 2 ? names.map(flag).join('') : `${names.slice(0, -1).map(flag).join(', ')} or ${flag(names.at(-1)!)}`;
const andList = (names: readonly string[]) => orList(names).replace(/ or (--[^ ]+)$/, ' and $1');
const conflict = (c: Conflict) => (typeof c === 'string' ? { option: c } : c);

function groupOf(table: Table, name: string): string[] {
  const group = table[name]?.oneOf;
  return group === undefined ? [name] : Object.keys(table).filter((k) => table[k]!.oneOf === group);
}

/** Every option a rule names is one the table declares: a rule about an option the command lacks is a mistake in the code. */
export function checkTable(table: Table, command: string): void {
  for (const [name, r] of Object.entries(table)) {
    const named = [
      ...(r.mode ? [r.mode] : []),
      ...(r.needs ?? []),
      ...(r.conflicts ?? []).flatMap((c) => {
        const { option, when } = conflict(c);
        return when ? [option, when] : [option];
      }),
      ...(typeof r.required === 'object' ? r.required.unless : []),
      ...(r.valuesNeed ? [r.valuesNeed.needs] : []),
    ];
    for (const other of named)
      if (!(other in table)) throw new Error(`${command}'s option table: --${name} names --${other}, which ${command} does not declare`);
  }
}

/** The first rule the given options break, as the one line the user reads. A mode first (without --wire, a wire
 *  option is refused as such), then what cannot go together, then what each option needs, then what is missing. */
export function checkRules(given: Given, table: Table, command: string): void {
  const has = (name: string) => given.options[name] !== undefined;
  const present = Object.entries(table).filter(([name]) => has(name));
  for (const [name, r] of present) if (r.mode && !has(r.mode)) throw new UsageError(`--${name} needs --${r.mode}`);
  for (const [name, r] of present)
    for (const { option, why, when } of (r.conflicts ?? []).map(conflict))
      if (has(option) && (when === undefined || has(when)))
        throw new UsageError(`${when ? `with --${when}, ` : ''}give --${name} or --${option}, not both${why ? ` (${why})` : ''}`);
  for (const group of new Set(present.flatMap(([, r]) => (r.oneOf ? [r.oneOf] : [])))) {
    const members = Object.keys(table).filter((k) => table[k]!.oneOf === group);
    const chosen = members.filter(has);
    if (chosen.length > 1) throw new UsageError(`${command}: give one of ${members.map(flag).join(', ')}, not ${andList(chosen)} together`);
  }
  for (const [name, r] of present) {
    const value = given.options[name]!;
    const values = value === true ? [] : [value, ...given.repeated.filter(([n]) => n === name).map(([, v]) => v)];
    if (r.nonEmpty && values.some((v) => v.trim() === '')) throw new UsageError(`--${name} needs ${r.nonEmpty}`);
    const vn = r.valuesNeed;
    if (vn && value !== true && !has(vn.needs) && vn.test(value))
      throw new UsageError(`--${name} ${value} is ${vn.are}: add --${vn.needs}`);
    if (r.needs && !r.needs.some(has)) throw new UsageError(`--${name} needs ${orList(r.needs)}`);
  }
  for (const [name, r] of Object.entries(table)) {
    if (!r.required) continue;
    const members = groupOf(table, name);
    const unless = r.required === true ? [] : r.required.unless;
    if (members.some(has) || unless.some(has)) continue;
    if (members.length === 1 && !unless.length) throw new UsageError(`${command} needs --${name} ${table[name]!.arg ?? 'VALUE'}`);
    throw new UsageError(`${command}: give one of ${members.map(flag).join(', ')}${unless.length ? ` (or ${orList(unless)})` : ''}`);
  }
}

/** An option's rules as --help says them (`needs --target or --serve; not with --call`), or '' when it has none. */
export function rulesText(table: Table, name: string): string {
  const r = table[name]!;
  const phrases: string[] = [];
  if (r.mode) phrases.push(`--${r.mode} only`);
  if (r.valuesNeed) phrases.push(`a value that is ${r.valuesNeed.are} needs --${r.valuesNeed.needs}`);
  if (r.needs) phrases.push(`needs ${orList(r.needs)}`);
  // A conflict holds both ways: each side's help says it.
  const against = [
    ...(r.conflicts ?? []).map(conflict),
    ...Object.entries(table).flatMap(([other, o]) =>
      (o.conflicts ?? []).map(conflict).flatMap((c) => (c.option === name ? [{ option: other, when: c.when }] : [])),
    ),
  ];
  const plain = against.filter((c) => !c.when).map((c) => c.option);
  if (plain.length) phrases.push(`not with ${orList(plain)}`);
  for (const when of new Set(against.flatMap((c) => (c.when ? [c.when] : []))))
    phrases.push(`with --${when}: not with ${orList(against.filter((c) => c.when === when).map((c) => c.option))}`);
  const members = groupOf(table, name);
  if (members.length > 1) phrases.push(`one of ${members.map(flag).join(', ')}`);
  if (r.required === true) phrases.push(members.length > 1 ? 'one is required' : 'required');
  else if (r.required) phrases.push(`${members.length > 1 ? 'one is required' : 'required'} unless ${orList(r.required.unless)} is given`);
  return phrases.join('; ');
}

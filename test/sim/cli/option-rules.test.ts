// The rules between options, declared in each command's option table (sim/cli/option-rules.ts): for
// every rule a command declares, the one line a user gets and exit 2 (a rule without a case here fails
// the coverage test); each rule in that option's --help line; a table that names an option it lacks
// is refused; and no command file writes a needs/conflicts check by hand any more.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../sim/cli/errors.ts';
import { AUDIT_OPTIONS } from '../../../sim/cli/commands/audit-options.ts';
import { checkOptions } from '../../../sim/cli/commands/check.ts';
import { OPTIONS as COMPARE_OPTIONS } from '../../../sim/cli/commands/compare-options.ts';
import { OPTIONS as PROXY_OPTIONS } from '../../../sim/cli/commands/proxy.ts';
import type { OptionSpec } from '../../../sim/cli/args.ts';
import { checkRules, checkTable, orList } from '../../../sim/cli/option-rules.ts';
import { ROOT, run } from './run.ts';

const TABLES: Record<string, Record<string, OptionSpec>> = {
  audit: AUDIT_OPTIONS,
  check: checkOptions(),
  compare: COMPARE_OPTIONS,
  proxy: PROXY_OPTIONS,
};

const conflictOf = (c: NonNullable<OptionSpec['conflicts']>[number]) => (typeof c === 'string' ? { option: c, when: undefined } : c);

/** Every rule a table declares, named as the cases below name them. */
function declaredRules(command: string, table: Record<string, OptionSpec>): string[] {
  const rules = new Set<string>();
  for (const [name, r] of Object.entries(table)) {
    const at = `${command} --${name}`;
    if (r.mode) rules.add(`${at} mode`);
    if (r.needs) rules.add(`${at} needs`);
    if (r.nonEmpty) rules.add(`${at} nonEmpty`);
    if (r.valuesNeed) rules.add(`${at} valuesNeed`);
    if (r.required) rules.add(`${at} required`);
    if (r.oneOf) rules.add(`${command} oneOf ${r.oneOf}`);
    for (const c of (r.conflicts ?? []).map(conflictOf)) rules.add(`${at} conflicts --${c.option}${c.when ? ` when --${c.when}` : ''}`);
  }
  return [...rules];
}

const U = 'http://127.0.0.1:1/mcp';
const MANIFEST = 'the manifest names the clients; the servers are the model and the SDK v2 server';
const CLIENT_REVISION = "--revision names the client's revision; a loopback server speaks what it speaks";

/** [the rule, argv, the line on stderr after `mcp-faultsim: `]. */
const CASES: [rule: string, argv: string[], line: string][] = [
  ['audit --server required', ['audit'], 'audit: give one of --server, --serve, --target (or --client-cmd or --clients)'],
  [
    'audit oneOf server',
    ['audit', '--server', 'sdk-sse', '--target', U],
    'audit: give one of --server, --serve, --target, not --server and --target together',
  ],
  ['audit --serve nonEmpty', ['audit', '--serve', ' '], '--serve needs a command'],
  ['audit --target nonEmpty', ['audit', '--target', ''], '--target needs a URL'],
  ['audit --serve-path needs', ['audit', '--target', U, '--serve-path', '/m'], '--serve-path needs --serve'],
  ['audit --boot-timeout needs', ['audit', '--target', U, '--boot-timeout', '5'], '--boot-timeout needs --serve'],
  ['audit --allow-remote needs', ['audit', '--serve', 'true', '--allow-remote'], '--allow-remote needs --target'],
  ['audit --ca needs', ['audit', '--serve', 'true', '--ca', 'ca.pem'], '--ca needs --target'],
  ['audit --header needs', ['audit', '--server', 'sdk-sse', '--header', 'A: b'], '--header needs --target or --serve'],
  ['audit --header-env needs', ['audit', '--server', 'sdk-sse', '--header-env', 'A=B'], '--header-env needs --target or --serve'],
  ['audit --call needs', ['audit', '--server', 'sdk-sse', '--call', 'x'], '--call needs --target or --serve'],
  ['audit --call nonEmpty', ['audit', '--serve', 'true', '--call', 'x', '--call', ' '], '--call needs a tool name'],
  [
    'audit --call conflicts --client-cmd',
    ['audit', '--client-cmd', 'x', '--serve', 'true', '--call', 'y'],
    'give --call or --client-cmd, not both (a client calls its own tools)',
  ],
  ['audit --args needs', ['audit', '--server', 'sdk-sse', '--args', '{}'], '--args needs --target or --serve'],
  ['audit --slow-call needs', ['audit', '--server', 'sdk-sse', '--slow-call', 'x'], '--slow-call needs --target or --serve'],
  ['audit --slow-call nonEmpty', ['audit', '--serve', 'true', '--slow-call', ''], '--slow-call needs a tool name'],
  [
    'audit --slow-call conflicts --client-cmd',
    ['audit', '--client-cmd', 'x', '--target', U, '--slow-call', 'y'],
    'give --slow-call or --client-cmd, not both (a client calls its own tools)',
  ],
  ['audit --tools needs', ['audit', '--server', 'sdk-sse', '--tools', 'faultsim'], '--tools needs --target or --serve'],
  [
    'audit --tools conflicts --call',
    ['audit', '--serve', 'true', '--call', 'x', '--tools', 'everything'],
    'give --tools or --call, not both',
  ],
  ['audit --revision needs', ['audit', '--server', 'sdk-sse', '--revision', 'dual'], '--revision needs --serve, --target or --client-cmd'],
  [
    'audit --revision conflicts --serve when --client-cmd',
    ['audit', '--client-cmd', 'x', '--serve', 'true', '--revision', '2026-07-28'],
    `with --client-cmd, give --revision or --serve, not both (${CLIENT_REVISION})`,
  ],
  [
    'audit --revision conflicts --target when --client-cmd',
    ['audit', '--client-cmd', 'x', '--target', U, '--revision', '2026-07-28'],
    `with --client-cmd, give --revision or --target, not both (${CLIENT_REVISION})`,
  ],
  [
    'audit --watchdog needs',
    ['audit', '--server', 'sdk-sse', '--watchdog', '3'],
    '--watchdog needs --target, --serve, --client-cmd or --clients',
  ],
  ...(['client-cmd', 'server', 'serve', 'serve-path', 'target', 'tools', 'revision'] as const).map((o): [string, string[], string] => [
    `audit --clients conflicts --${o}`,
    ['audit', '--clients', 'clients.json', `--${o}`, 'x'],
    `give --clients or --${o}, not both (${MANIFEST})`,
  ]),
  ['audit --jobs needs', ['audit', '--server', 'sdk-sse', '--jobs', '2'], '--jobs needs --clients'],
  ['audit --repro needs', ['audit', '--client-cmd', 'x', '--repro', '/tmp/x'], '--repro needs --clients'],
  ['audit --conformance needs', ['audit', '--server', 'sdk-sse', '--conformance'], '--conformance needs --serve or --target'],
  [
    'audit --conformance conflicts --client-cmd',
    ['audit', '--client-cmd', 'x', '--serve', 'y', '--conformance'],
    'give --conformance or --client-cmd, not both (the conformance suite tests servers)',
  ],
  [
    'audit --conformance conflicts --clients',
    ['audit', '--clients', 'm.json', '--conformance'],
    'give --conformance or --clients, not both (the conformance suite tests servers)',
  ],
  ['audit --client-cmd nonEmpty', ['audit', '--client-cmd', ' '], '--client-cmd needs a command'],

  ['check --server valuesNeed', ['check', '--server', 'sdk-sse'], '--server sdk-sse is real code: add --wire'],
  ['check --client valuesNeed', ['check', '--client', 'sdk'], '--client sdk is real code: add --wire'],
  [
    'check oneOf server',
    ['check', '--wire', '--server', 'sdk-sse', '--serve', 'true'],
    'check: give one of --server, --target, --serve, not --server and --serve together',
  ],
  ['check --save conflicts --wire', ['check', '--wire', '--save'], 'give --save or --wire, not both (--save keeps model-tier findings)'],
  [
    'check --depth conflicts --wire',
    ['check', '--wire', '--depth', '1'],
    'give --depth or --wire, not both (--depth explores the model tier)',
  ],
  ['check --target mode', ['check', '--target', U], '--target needs --wire'],
  ['check --target nonEmpty', ['check', '--wire', '--target', ''], '--target needs a URL'],
  ['check --serve mode', ['check', '--serve', 'true'], '--serve needs --wire'],
  ['check --serve nonEmpty', ['check', '--wire', '--serve', ''], '--serve needs a command'],
  ['check --serve-path mode', ['check', '--serve-path', '/m'], '--serve-path needs --wire'],
  ['check --serve-path needs', ['check', '--wire', '--serve-path', '/m'], '--serve-path needs --serve'],
  ['check --boot-timeout mode', ['check', '--boot-timeout', '5'], '--boot-timeout needs --wire'],
  ['check --boot-timeout needs', ['check', '--wire', '--boot-timeout', '5'], '--boot-timeout needs --serve'],
  ['check --watchdog mode', ['check', '--watchdog', '3'], '--watchdog needs --wire'],
  ['check --watchdog needs', ['check', '--wire', '--watchdog', '3'], '--watchdog needs --target, --serve or --client-cmd'],
  ['check --client-cmd mode', ['check', '--client-cmd', 'x'], '--client-cmd needs --wire'],
  [
    'check --client-cmd conflicts --client',
    ['check', '--wire', '--client', 'sdk', '--client-cmd', 'x'],
    'give --client-cmd or --client, not both',
  ],
  ['check --client-cmd nonEmpty', ['check', '--wire', '--client-cmd', ' '], '--client-cmd needs a command'],
  ['check --tools mode', ['check', '--tools', 'faultsim'], '--tools needs --wire'],
  ['check --tools needs', ['check', '--wire', '--tools', 'faultsim'], '--tools needs --target or --serve'],
  [
    'check --tools conflicts --call',
    ['check', '--wire', '--serve', 'true', '--tools', 'faultsim', '--call', 'x'],
    'give --tools or --call, not both',
  ],
  ['check --allow-remote mode', ['check', '--allow-remote'], '--allow-remote needs --wire'],
  ['check --allow-remote needs', ['check', '--wire', '--serve', 'true', '--allow-remote'], '--allow-remote needs --target'],
  ['check --ca mode', ['check', '--ca', 'ca.pem'], '--ca needs --wire'],
  ['check --ca needs', ['check', '--wire', '--ca', 'ca.pem'], '--ca needs --target'],
  ['check --header mode', ['check', '--header', 'A: b'], '--header needs --wire'],
  ['check --header needs', ['check', '--wire', '--header', 'A: b'], '--header needs --target or --serve'],
  ['check --header-env mode', ['check', '--header-env', 'A=B'], '--header-env needs --wire'],
  ['check --header-env needs', ['check', '--wire', '--header-env', 'A=B'], '--header-env needs --target or --serve'],
  ['check --call mode', ['check', '--call', 'x'], '--call needs --wire'],
  ['check --call needs', ['check', '--wire', '--call', 'x'], '--call needs --target or --serve'],
  ['check --call nonEmpty', ['check', '--wire', '--serve', 'true', '--call', ''], '--call needs a tool name'],
  ['check --args mode', ['check', '--args', '{}'], '--args needs --wire'],
  ['check --args needs', ['check', '--wire', '--args', '{}'], '--args needs --target or --serve'],
  ['check --revision mode', ['check', '--revision', 'dual'], '--revision needs --wire'],
  ['check --revision needs', ['check', '--wire', '--revision', 'dual'], '--revision needs --target or --serve'],

  ['compare --client-cmd needs', ['compare', '--client-cmd', 'x'], '--client-cmd needs --wire'],
  ['compare --client-cmd nonEmpty', ['compare', '--wire', '--client-cmd', ' '], '--client-cmd needs a command'],

  ['proxy --plan required', ['proxy'], 'proxy needs --plan FILE'],
  [
    'proxy oneOf server',
    ['proxy', '--plan', 'plan.json', '--server', 'sdk-sse', '--target', U],
    'proxy: give one of --target, --serve, --server, not --target and --server together',
  ],
  ['proxy --serve-path needs', ['proxy', '--plan', 'plan.json', '--serve-path', '/m'], '--serve-path needs --serve'],
  ['proxy --boot-timeout needs', ['proxy', '--plan', 'plan.json', '--boot-timeout', '5'], '--boot-timeout needs --serve'],
  ['proxy --target nonEmpty', ['proxy', '--plan', 'plan.json', '--target', ''], '--target needs a URL'],
  ['proxy --serve nonEmpty', ['proxy', '--plan', 'plan.json', '--serve', ''], '--serve needs a command'],
];

describe('every declared rule, as the user meets it', () => {
  for (const [rule, argv, line] of CASES) {
    it(`${rule}: "${line}", exit 2`, async () => {
      const r = await run(...argv);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`mcp-faultsim: ${line}\n`);
    });
  }

  it('has a case for each rule a command declares, and none for a rule no command declares', () => {
    const declared = Object.entries(TABLES).flatMap(([command, table]) => declaredRules(command, table));
    const covered = CASES.map(([rule]) => rule);
    expect(declared.filter((r) => !covered.includes(r))).toEqual([]);
    expect(covered.filter((r) => !declared.includes(r))).toEqual([]);
  });

  it('--help shows the help, whatever the rules would say of the other options', async () => {
    const r = await run('check', '--target', U, '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: mcp-faultsim check/);
  });
});

describe('--help says each rule on the line of each option it binds', () => {
  const help: Record<string, string> = {};
  const lineOf = (command: string, name: string) => help[command]!.split('\n').find((l) => l.startsWith(`  --${name} `)) ?? '';

  for (const [command, table] of Object.entries(TABLES)) {
    it(command, async () => {
      help[command] = (await run(command, '--help')).stdout;
      for (const [name, r] of Object.entries(table)) {
        const line = lineOf(command, name);
        if (r.mode) expect(line).toContain(`--${r.mode} only`);
        if (r.needs) expect(line).toContain(`needs ${orList(r.needs)}`);
        if (r.valuesNeed) expect(line).toContain(`needs --${r.valuesNeed.needs}`);
        if (r.required) expect(line).toContain('required');
        if (r.oneOf)
          expect(line).toContain(
            `one of ${Object.keys(table)
              .filter((k) => table[k]!.oneOf === r.oneOf)
              .map((k) => `--${k}`)
              .join(', ')}`,
          );
        // A conflict is said on both sides.
        for (const c of (r.conflicts ?? []).map(conflictOf)) {
          expect(line).toMatch(new RegExp(`not with [^\\]]*--${c.option}\\b`));
          expect(lineOf(command, c.option)).toMatch(new RegExp(`not with [^\\]]*--${name}\\b`));
        }
      }
    });
  }

  it('in the words of the examples', () => {
    expect(lineOf('audit', 'serve-path')).toMatch(/ \[needs --serve; not with --clients\]$/);
    expect(lineOf('check', 'header')).toMatch(/ \[--wire only; needs --target or --serve\]$/);
    expect(lineOf('proxy', 'plan')).toMatch(/ \[required\]$/);
  });
});

describe('the checker', () => {
  const table: Record<string, OptionSpec> = {
    a: { value: true, help: '', needs: ['b', 'c'] },
    b: { value: false, help: '', oneOf: 'g' },
    c: { value: false, help: '', oneOf: 'g', conflicts: [{ option: 'd', why: 'because', when: 'e' }] },
    d: { value: true, help: '', arg: 'D', required: true },
    e: { value: true, help: '', repeatable: true, nonEmpty: 'a name' },
  };
  const given = (options: Record<string, string | true>, repeated: [string, string][] = []) => ({ options, repeated });
  const said = (g: ReturnType<typeof given>) => {
    try {
      checkRules(g, table, 'cmd');
      return 'ok';
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      return (e as Error).message;
    }
  };

  it('passes what keeps every rule, and says the first rule broken', () => {
    expect(said(given({ d: 'x' }))).toBe('ok');
    expect(said(given({ d: 'x', a: 'v', b: true, e: 'n' }, [['e', 'n']]))).toBe('ok');
    expect(said(given({ d: 'x', c: true }))).toBe('ok');
    expect(said(given({}))).toBe('cmd needs --d D');
    expect(said(given({ d: 'x', a: 'v' }))).toBe('--a needs --b or --c');
    expect(said(given({ d: 'x', b: true, c: true }))).toBe('cmd: give one of --b, --c, not --b and --c together');
    expect(said(given({ d: 'x', c: true, e: 'n' }, [['e', 'n']]))).toBe('with --e, give --c or --d, not both (because)');
    expect(
      said(
        given({ d: 'x', e: 'n' }, [
          ['e', ' '],
          ['e', 'n'],
        ]),
      ),
    ).toBe('--e needs a name');
  });

  it('refuses a table whose rule names an option it does not declare (a mistake in the code, not bad input)', () => {
    const needsNope: Record<string, OptionSpec> = { a: { value: false, help: '', needs: ['nope'] } };
    const whenNope: Record<string, OptionSpec> = { a: { value: false, help: '', conflicts: [{ option: 'a', when: 'nope' }] } };
    expect(() => checkTable(needsNope, 'cmd')).toThrow("cmd's option table: --a names --nope, which cmd does not declare");
    expect(() => checkTable(whenNope, 'cmd')).toThrow(/--nope/);
    for (const [command, t] of Object.entries(TABLES)) checkTable(t, command);
  });
});

/** Where a command's source still throws a rule between options by hand: the words a declared rule says. */
function handWrittenRules(source: string): string[] {
  const words = /needs --|, not both|give one of|does not go with|does not combine|is real code/;
  return [...source.matchAll(/new UsageError\(([\s\S]*?)\);/g)].map((m) => m[1]!).filter((message) => words.test(message));
}

describe('no command writes a rule between options by hand', () => {
  it('finds one planted', () => {
    const planted = "if (a && !b) throw new UsageError('--a needs --b');\nif (x) throw new UsageError(`--$" + '{o} is fine`);';
    expect(handWrittenRules(planted)).toEqual(["'--a needs --b'"]);
    expect(handWrittenRules("throw new UsageError(\n  'give --x or --y, not both',\n);")).toHaveLength(1);
  });

  it('finds none in sim/cli outside the checker', () => {
    const dir = join(ROOT, 'sim/cli');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && f !== 'option-rules.ts');
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((f) => handWrittenRules(readFileSync(join(dir, f), 'utf8')).map((m) => `${f}: ${m}`));
    expect(found).toEqual([]);
  });
});

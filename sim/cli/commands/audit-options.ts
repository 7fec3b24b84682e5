// The audit command's options, their help and the rules between them (a real server's own options are
// defined once, for audit, check --wire and proxy: wire-server.ts, upstream-options.ts, tool-options.ts);
// its own, each read once into a value (the revisions, the scenario names, the revision a client
// harness is asked to speak); and the `--clients MANIFEST` entry that hands the ecosystem matrix to
// audit-clients.ts. Split from audit.ts, which reads the rest.
import { existsSync, readdirSync } from 'node:fs';
import { REPRO_INDEX } from '../../audit/client/repro.ts';
import { CLIENT_AUDIT_ORDER } from '../../audit/client/scenarios.ts';
import { AUDIT_SCENARIO_NAMES } from '../../audit/server/runner.ts';
import { HARNESS_REVISIONS, type HarnessRevision } from '../../wire/process/cmd-client.ts';
import type { Revision } from '../../../models/policies.ts';
import { intOption, stringOption, type OptionSpec, type Parsed } from '../args.ts';
import { UsageError } from '../errors.ts';
import type { Conflict } from '../option-rules.ts';
import { REACH_OPTIONS } from '../upstream-options.ts';
import { checkOutDir } from '../files.ts';
import { SLOW_CALL_OPTION, toolOptions } from '../tool-options.ts';
import { REVISIONS } from '../wire-options.ts';
import { REAL_SERVER_OPTIONS, WATCHDOG_OPTION, watchdogMs } from '../wire-server.ts';
import { MATRIX_FILES, runClientsAudit } from './audit-clients.ts';
import { baselineRequest } from './audit-baseline.ts';
import { CONFORMANCE_OPTION } from './audit-conformance.ts';

/** The model server a client is audited against unless told: it streams every call (the cuts need a stream). */
export const CLIENT_AUDIT_SERVER = 'streaming=accept-header';

export function revisionsOption(args: Parsed): Revision[] {
  const r = stringOption(args, 'revision') ?? '2025-11-25';
  if (!(REVISIONS as readonly string[]).includes(r)) throw new UsageError(`unknown --revision '${r}' (valid: ${REVISIONS.join(', ')})`);
  return r === 'dual' ? ['2025-11-25', '2026-07-28'] : [r as Revision];
}

export function onlyOption(args: Parsed, names: readonly string[] = AUDIT_SCENARIO_NAMES): string[] {
  const only = (stringOption(args, 'only') ?? '').split(',').filter(Boolean);
  for (const n of only) if (!names.includes(n)) throw new UsageError(`unknown scenario '${n}' (valid: ${names.join(', ')})`);
  return only;
}

export function harnessRevisionOption(args: Parsed): HarnessRevision {
  const r = stringOption(args, 'revision') ?? 'default';
  if (!(HARNESS_REVISIONS as readonly string[]).includes(r))
    throw new UsageError(`unknown --revision '${r}' for a client (valid: ${HARNESS_REVISIONS.join(', ')})`);
  return r as HarnessRevision;
}

/** The model server a client is audited against unless told: in the revision asked for (2025-11-25 for `default`). */
export function clientAuditServer(r: HarnessRevision): string {
  return r === '2026-07-28' ? `${CLIENT_AUDIT_SERVER},protocol=2026-07-28` : CLIENT_AUDIT_SERVER;
}

/** `--clients MANIFEST`: the ecosystem matrix (audit-clients.ts). */
export function clientsAudit(args: Parsed, manifest: string, out: NodeJS.WritableStream): Promise<number> {
  const repro = stringOption(args, 'repro');
  const outDir = stringOption(args, 'out');
  if (outDir !== undefined) checkMatrixOut(outDir);
  if (repro !== undefined) checkReproDir(repro);
  return runClientsAudit(
    {
      manifest,
      only: onlyOption(args, CLIENT_AUDIT_ORDER),
      ...(outDir !== undefined ? { out: outDir } : {}),
      ...(repro !== undefined ? { repro } : {}),
      json: args.options.json === true,
      progress: !args.options.quiet && !args.options.json,
      watchdogMs: watchdogMs(args),
      jobs: intOption(args, 'jobs', 2, { min: 1, max: 16 }),
      baseline: baselineRequest(args, `mcp-faultsim audit --clients ${manifest}`),
    },
    out,
  );
}

function checkMatrixOut(out: string): void {
  if (!existsSync(out)) return;
  const other = readdirSync(out).filter((f) => !MATRIX_FILES.includes(f));
  if (other.length)
    throw new UsageError(`--out ${out} holds other files (${other.slice(0, 3).join(', ')}): give an empty or audit-only folder`);
}

/** --repro's folder is replaced whole: only an empty one, or one an earlier --repro wrote. */
function checkReproDir(dir: string): void {
  checkOutDir(dir, '--repro');
  const entries = readdirSync(dir);
  if (entries.length && !entries.includes(REPRO_INDEX))
    throw new UsageError(`--repro ${dir} holds other files (${entries.slice(0, 3).join(', ')}): give an empty folder or one --repro wrote`);
}

const { tools, call, args } = toolOptions('the preset whose tools the server lists, else a tool it annotates readOnlyHint/idempotentHint');
/** `--call` and `--slow-call` name a server's tools for a server audit. */
const SERVER_AUDIT_ONLY: Conflict = { option: 'client-cmd', why: 'a client calls its own tools' };
const MANIFEST = 'the manifest names the clients; the servers are the model and the SDK v2 server';
/** With --client-cmd, --revision is the client's: a loopback server speaks what it speaks. */
const CLIENT_REVISION = "--revision names the client's revision; a loopback server speaks what it speaks";

/** Every option of `mcp-faultsim audit`, as `--help` lists them, with the rules between them. */
export const AUDIT_OPTIONS: Record<string, OptionSpec> = {
  server: {
    value: true,
    arg: 'PRESET|K=V,…',
    help: 'in-process: sdk-sse, sdk-json, sdk2-sse[,protocol=…], sdk2-json[,protocol=…], or model knobs',
    oneOf: 'server',
    required: { unless: ['client-cmd', 'clients'] },
  },
  serve: REAL_SERVER_OPTIONS.serve!,
  'serve-path': REAL_SERVER_OPTIONS['serve-path']!,
  'boot-timeout': REAL_SERVER_OPTIONS['boot-timeout']!,
  target: REAL_SERVER_OPTIONS.target!,
  ...REACH_OPTIONS,
  call: { ...call!, conflicts: [SERVER_AUDIT_ONLY] },
  args: args!,
  'slow-call': { ...SLOW_CALL_OPTION, conflicts: [SERVER_AUDIT_ONLY] },
  tools: tools!,
  revision: {
    value: true,
    arg: 'R',
    help: `with --serve/--target: the server's revision, ${REVISIONS.join(', ')} (default 2025-11-25); with --client-cmd: the revision connect asks for, ${HARNESS_REVISIONS.join(', ')} (default: every revision examples/clients/clients.json lists for the command, each against a server of that revision; else default)`,
    needs: ['serve', 'target', 'client-cmd'],
    conflicts: [
      { option: 'serve', when: 'client-cmd', why: CLIENT_REVISION },
      { option: 'target', when: 'client-cmd', why: CLIENT_REVISION },
    ],
  },
  watchdog: { ...WATCHDOG_OPTION, needs: [...WATCHDOG_OPTION.needs!, 'clients'] },
  only: { value: true, arg: 'NAME,…', help: 'run only these scenarios' },
  out: { value: true, arg: 'DIR', help: 'write audit.md, audit.html, audit.json, audit.junit.xml there (the folder is replaced whole)' },
  json: { value: false, help: 'print the audit as JSON instead of the table' },
  strict: { value: false, help: 'exit 1 also when the spec lens finds a violation (default: resilience verdicts only)' },
  conformance: CONFORMANCE_OPTION,
  quiet: { value: false, help: 'no progress on stderr' },
  clients: {
    value: true,
    arg: 'MANIFEST',
    help: 'audit every client of this manifest (examples/clients/clients.json) in every revision it speaks, against the model and the SDK v2 server; writes clients.* with --out',
    conflicts: ['client-cmd', 'server', 'serve', 'serve-path', 'target', 'tools', 'revision'].map((option) => ({ option, why: MANIFEST })),
  },
  jobs: { value: true, arg: 'N', help: 'audits at a time (default 2; each client is its own process)', needs: ['clients'] },
  repro: {
    value: true,
    arg: 'DIR',
    help: 'a standalone reproduction per non-pass (npm i && node repro.mjs; no mcp-faultsim needed)',
    needs: ['clients'],
  },
  'client-cmd': {
    value: true,
    arg: 'CMD',
    help: `audit this client instead (any language, JSON lines: examples/clients/README.md) through a loopback fault proxy; the server is --server/--serve/--target or the model ${CLIENT_AUDIT_SERVER}`,
    nonEmpty: 'a command',
  },
  'write-baseline': {
    value: true,
    arg: 'FILE',
    help: "write this run's non-passes to FILE as a baseline for CI (YAML, the conformance suite's --expected-failures convention; fill in each reason and upstream link)",
  },
  baseline: {
    value: true,
    arg: 'FILE',
    help: 'exit 0 when the run prints exactly the non-passes FILE lists; 1 on a new one, or on an entry the run no longer shows (stale: remove it)',
  },
  help: { value: false, help: 'show this help' },
};

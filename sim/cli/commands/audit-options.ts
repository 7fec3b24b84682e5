// The audit command's options (their help) and its own, each read once into a value (the revisions, the scenario names,
// the revision a client harness is asked to speak), and the `--clients MANIFEST` entry that hands
// the ecosystem matrix to audit-clients.ts. Split from audit.ts, which reads the rest.
import { existsSync, readdirSync } from 'node:fs';
import { REPRO_INDEX } from '../../audit/client/repro.ts';
import { CLIENT_AUDIT_ORDER } from '../../audit/client/scenarios.ts';
import { AUDIT_SCENARIO_NAMES } from '../../audit/server/runner.ts';
import { HARNESS_REVISIONS, type HarnessRevision } from '../../wire/process/cmd-client.ts';
import { DEFAULT_WATCHDOG_MS } from '../../wire/process/watchdog.ts';
import type { Revision } from '../../../models/policies.ts';
import { intOption, stringOption, type OptionSpec, type Parsed } from '../args.ts';
import { UsageError } from '../errors.ts';
import { REACH_OPTIONS } from '../upstream-options.ts';
import { checkOutDir } from '../files.ts';
import { MATRIX_FILES, runClientsAudit } from './audit-clients.ts';

export const REVISIONS = ['2025-11-25', '2026-07-28', 'dual'] as const;
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
  for (const o of ['client-cmd', 'server', 'serve', 'serve-path', 'target', 'tools', 'revision'])
    if (args.options[o] !== undefined)
      throw new UsageError(
        `--${o} does not go with --clients (the manifest names the clients; the servers are the model and the SDK v2 server)`,
      );
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
      watchdogMs: intOption(args, 'watchdog', DEFAULT_WATCHDOG_MS / 1000, { min: 1, max: 86_400 }) * 1000,
      jobs: intOption(args, 'jobs', 2, { min: 1, max: 16 }),
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

/** Every option of `mcp-faultsim audit`, as `--help` lists them. */
export const AUDIT_OPTIONS: Record<string, OptionSpec> = {
  server: {
    value: true,
    arg: 'PRESET|K=V,…',
    help: 'in-process: sdk-sse, sdk-json, sdk2-sse[,protocol=…], sdk2-json[,protocol=…], or model knobs',
  },
  serve: {
    value: true,
    arg: 'CMD',
    help: 'start this server on a free loopback port ({port}, $PORT); restarted for server-restart',
  },
  'serve-path': { value: true, arg: 'PATH', help: 'with --serve: the MCP endpoint path (default /mcp)' },
  target: {
    value: true,
    arg: 'URL',
    help: 'a running MCP server, http:// or https:// (TLS verified); on loopback unless --allow-remote',
  },
  'allow-remote': REACH_OPTIONS['allow-remote']!,
  ca: { value: true, arg: 'FILE', help: "with --target https://: the PEM certificate of the CA that signed the server's (a private CA)" },
  header: {
    value: true,
    repeatable: true,
    arg: "'NAME: VALUE'",
    help: 'with --serve/--target: add this header to every request (repeatable); reports show it <redacted>',
  },
  'header-env': REACH_OPTIONS['header-env']!,
  call: {
    value: true,
    repeatable: true,
    arg: 'TOOL',
    help: "with --serve/--target: call the server's own tool TOOL (repeatable; default: one it annotates readOnlyHint/idempotentHint)",
  },
  args: { value: true, repeatable: true, arg: 'JSON', help: 'the arguments of the --call (or --slow-call) before it, a JSON object' },
  'slow-call': {
    value: true,
    repeatable: true,
    arg: 'TOOL',
    help: 'with --serve/--target: for close-cancels, a slow tool with a visible effect (its stream is closed while it runs; the read-only --call tool shows whether its work landed)',
  },
  tools: { value: true, arg: 'SET', help: 'with --serve/--target: a preset tool set instead of --call, everything or faultsim' },
  revision: {
    value: true,
    arg: 'R',
    help: `with --serve/--target: the server's revision, ${REVISIONS.join(', ')} (default 2025-11-25); with --client-cmd: the revision connect asks for, ${HARNESS_REVISIONS.join(', ')} (default: default)`,
  },
  watchdog: {
    value: true,
    arg: 'SECONDS',
    help: `with --serve/--target/--client-cmd: wall-clock limit of each run (default ${DEFAULT_WATCHDOG_MS / 1000}); past it, exit 4`,
  },
  only: { value: true, arg: 'NAME,…', help: 'run only these scenarios' },
  out: { value: true, arg: 'DIR', help: 'write audit.md, audit.html, audit.json, audit.junit.xml there (the folder is replaced whole)' },
  json: { value: false, help: 'print the audit as JSON instead of the table' },
  strict: { value: false, help: 'exit 1 also when the spec lens finds a violation (default: resilience verdicts only)' },
  quiet: { value: false, help: 'no progress on stderr' },
  clients: {
    value: true,
    arg: 'MANIFEST',
    help: 'audit every client of this manifest (examples/clients/clients.json) in every revision it speaks, against the model and the SDK v2 server; writes clients.* with --out',
  },
  jobs: { value: true, arg: 'N', help: 'with --clients: audits at a time (default 2; each client is its own process)' },
  repro: {
    value: true,
    arg: 'DIR',
    help: 'with --clients: a standalone reproduction per non-pass (npm i && node repro.mjs; no mcp-faultsim needed)',
  },
  'client-cmd': {
    value: true,
    arg: 'CMD',
    help: `audit this client instead (any language, JSON lines: examples/clients/README.md) through a loopback fault proxy; the server is --server/--serve/--target or the model ${CLIENT_AUDIT_SERVER}`,
  },
  help: { value: false, help: 'show this help' },
};

// `mcp-faultsim audit`: the fixed scenario set (audit/scenarios.ts) against one server: an in-process
// preset, the model (a knob list), `--serve CMD` or `--target URL`; or, with `--client-cmd CMD`, the
// client scenarios (audit/client/scenarios.ts) against a client process through the loopback fault
// proxy, the server then the constant (the model by default). Prints a table of verdicts with
// evidence; `--out DIR` writes audit.md, audit.html, audit.json and audit.junit.xml as one set.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runClientAudit } from '../../audit/client/runner.ts';
import { CLIENT_AUDIT_ORDER } from '../../audit/client/scenarios.ts';
import {
  AUDIT_OPTIONS,
  CLIENT_AUDIT_SERVER,
  clientAuditServer,
  clientsAudit,
  harnessRevisionOption,
  onlyOption,
  revisionsOption,
} from './audit-options.ts';
import { runAudit, serverRevisions, type AuditResult } from '../../audit/server/runner.ts';
import { PROBES } from '../../audit/server/probes.ts';
import { CLIENT_SCENARIOS, NOT_FOR_CLIENTS } from '../../audit/client/scenarios.ts';
import { SCENARIOS } from '../../audit/scenarios.ts';
import { combination, type Revision } from '../../../models/policies.ts';
import { renderAuditHtml } from '../../../reports/audit-html.ts';
import { renderAuditJunit } from '../../../reports/audit-junit.ts';
import { renderAuditMarkdown, renderAuditText } from '../../../reports/audit-text.ts';
import { formatJson } from '../../../reports/json-format.ts';
import { LoopbackError, type ServedProcess } from '../../wire/process/loopback.ts';
import { DEFAULT_WATCHDOG_MS, Watchdog } from '../../wire/process/watchdog.ts';
import { realSleep } from '../../wire/protocol/virtual-time.ts';
import { serverPreset, WirePresetError, type WireServerSpec } from '../../wire/setup.ts';
import { helpText, intOption, parseArgs, stringOption } from '../args.ts';
import { EXIT, UsageError } from '../errors.ts';
import { replaceFolder } from '../files.ts';
import { parseServer } from '../knobs.ts';
import { CLIENT_REFERENCE, requireWorkingReference } from '../reference-check.ts';
import { runWire } from '../../wire/world.ts';
import { wireSideArgs } from '../wire-check.ts';
import { endWireRun, loopbackServer, quote, toolsOption } from '../wire-server.ts';
import { callsOption, realServerTools } from '../audit-real-server.ts';
import { redact } from '../redact.ts';
import { upstreamOptions } from '../upstream-options.ts';
import type { ToolChoice } from '../../audit/server/tool-choice.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

const OUT_FILES = ['audit.md', 'audit.html', 'audit.json', 'audit.junit.xml'];

const nothing = () => {};

function inProcessServer(text: string): WireServerSpec {
  try {
    return serverPreset(text) ?? { kind: 'model', policy: combination({ server: parseServer(text) }, NO_ADDITIONS).server };
  } catch (e) {
    if (e instanceof WirePresetError) throw new UsageError(e.message);
    throw e;
  }
}

/** The out folder holds the audit set only: replacing it whole must not take a user's files with it. */
function checkOut(out: string): void {
  if (!existsSync(out)) return;
  const other = readdirSync(out).filter((f) => !OUT_FILES.includes(f));
  if (other.length)
    throw new UsageError(`--out ${out} holds other files (${other.slice(0, 3).join(', ')}): give an empty or audit-only folder`);
}

function writeOut(a: AuditResult, out: string, hide: (text: string) => string): string[] {
  const files = new Map([
    ['audit.md', hide(renderAuditMarkdown(a))],
    ['audit.html', hide(renderAuditHtml(a))],
    ['audit.json', hide(`${formatJson(a)}\n`)],
    ['audit.junit.xml', hide(renderAuditJunit(a))],
  ]);
  replaceFolder(out, files);
  return OUT_FILES.map((f) => join(out, f));
}

export async function runAuditCommand(argv: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const args = parseArgs(argv, AUDIT_OPTIONS, 'audit');
  if (args.options.help) {
    const list = [...SCENARIOS, ...PROBES].map((s) => `  ${s.name} [${s.revisions.join(', ')}]\n      ${s.asks}`).join('\n');
    const clientList = [
      `  ${CLIENT_SCENARIOS.map((s) => s.name).join(', ')}`,
      `  not applicable to a client: ${Object.keys(NOT_FOR_CLIENTS).join(', ')}`,
    ].join('\n');
    const usage =
      'mcp-faultsim audit [--client-cmd CMD [--revision R]] (--server PRESET|K=V,… | --serve CMD | --target URL) [--only NAME,…] [--out DIR] [--json]\n' +
      '       mcp-faultsim audit --clients MANIFEST [--only NAME,…] [--out DIR] [--repro DIR] [--jobs N] [--json]';
    const summary =
      'Run a fixed set of fault scenarios against one MCP server, each on real HTTP with a forgiving model client (a\n' +
      'new session after any failure), judged by the same oracles as check; print per scenario the verdict (pass,\n' +
      'loud: an error the agent sees and recovers from, stuck: loud and never recovers, silent: an empty result, a\n' +
      'hang or a duplicate execution, not applicable) with one line of evidence and the command that reproduces it.\n' +
      'Beside it, the spec lens: conforms, violates (the requirement quoted: revision, section, the MUST/SHOULD\n' +
      'sentence), optional, not implemented, unspecified (the spec leaves it open: recorded) or not tested. Each\n' +
      '2025-11-25 scenario runs again with a spec-literal client (a new session only after 404); where its verdict\n' +
      'differs, the row says so: a client that follows the spec gets stuck there. Probes (get-405, server-discover,\n' +
      'mismatch-protocol-version, two-callers-one-id, close-cancels) ask the server directly, without a fault.\n' +
      'With --client-cmd, the client is audited instead: it runs as its own process behind the JSON-lines protocol,\n' +
      'reaches the server through a loopback fault proxy, on the wall clock, in the revision --revision asks for; each\n' +
      'fault is placed on its own requests (the tools/call of the first call in its fault-free run). Two verdicts per\n' +
      "scenario: the agent's (retry once, a new connect after a gone session) and the library's alone (that loop off:\n" +
      'recovered, re-issued, error at once, error at its timeout, never settled), with the spec requirements it meets\n' +
      'or breaks. The server is the constant: the model ' +
      `${CLIENT_AUDIT_SERVER} (protocol=2026-07-28 for that revision) unless --server/--serve/--target says otherwise.\n` +
      'With --clients, every client of the manifest in every revision it speaks, against the model and the SDK v2\n' +
      'server (sdk2-sse) in that revision: one matrix, a progress bar on stderr, clients.* with --out.';
    out.write(
      helpText(
        usage,
        summary,
        AUDIT_OPTIONS,
        `\nscenarios:\n${list}\n\nfor a client (--client-cmd):\n${clientList}\n\nexit status: 0 every scenario passes (n/a counts as a pass), 1 one does not (with --strict: or the spec lens finds a\nviolation), 2 bad input (a bad manifest), 4 a run against a real server or client did not finish (watchdog, server-failed; with --clients: an audit whose\nharness failed its fault-free run).\n`,
      ),
    );
    return EXIT.ok;
  }
  if (args.positionals.length) throw new UsageError(`audit: unexpected argument '${args.positionals[0]}'`);
  const manifest = stringOption(args, 'clients');
  if (manifest !== undefined) return clientsAudit(args, manifest, out);
  for (const o of ['jobs', 'repro']) if (args.options[o] !== undefined) throw new UsageError(`--${o} needs --clients`);
  const clientCmd = stringOption(args, 'client-cmd');
  if (clientCmd !== undefined && clientCmd.trim() === '') throw new UsageError('--client-cmd needs a command');
  const serve = stringOption(args, 'serve');
  const target = stringOption(args, 'target');
  const harnessRevision = clientCmd !== undefined ? harnessRevisionOption(args) : 'default';
  const serverText =
    stringOption(args, 'server') ?? (clientCmd !== undefined && !serve && !target ? clientAuditServer(harnessRevision) : undefined);
  const given = [serverText, serve, target].filter((x) => x !== undefined).length;
  if (given !== 1) throw new UsageError(`audit: give one of --server, --serve, --target${clientCmd !== undefined ? ' (or none)' : ''}`);
  const loopback = serve !== undefined || target !== undefined;
  for (const o of ['tools', 'revision', 'header', 'header-env', 'call', 'args', 'slow-call'])
    if (!loopback && !(o === 'revision' && clientCmd !== undefined) && args.options[o] !== undefined)
      throw new UsageError(`--${o} needs --serve or --target`);
  if (clientCmd !== undefined && loopback && args.options.revision !== undefined)
    throw new UsageError("--revision with --client-cmd names the client's revision: the loopback server speaks what it speaks");
  for (const o of ['ca', 'allow-remote'])
    if (target === undefined && args.options[o] !== undefined) throw new UsageError(`--${o} needs --target`);
  if (args.options.tools !== undefined && args.options.call !== undefined) throw new UsageError('give --tools or --call, not both');
  for (const o of ['call', 'slow-call'])
    if (clientCmd !== undefined && args.options[o] !== undefined)
      throw new UsageError(`--${o} is for a server audit: a client calls its own tools`);
  const calls = callsOption(args);
  const reach = upstreamOptions(args);
  if (!loopback && clientCmd === undefined && args.options.watchdog !== undefined)
    throw new UsageError('--watchdog needs --serve, --target or --client-cmd');

  if (serve === undefined && args.options['serve-path'] !== undefined) throw new UsageError('--serve-path needs --serve');
  const only = onlyOption(args, clientCmd !== undefined ? CLIENT_AUDIT_ORDER : undefined);
  const outDir = stringOption(args, 'out');
  if (outDir !== undefined) checkOut(outDir);
  const tools = toolsOption(args);
  const callArgs = calls.flatMap((c) => [
    `--${c.slow ? 'slow-call' : 'call'} ${quote(c.name)}`,
    ...(Object.keys(c.args).length ? [`--args ${quote(JSON.stringify(c.args))}`] : []),
  ]);
  const loopbackRevisions = clientCmd !== undefined ? ['2025-11-25' as Revision] : revisionsOption(args);
  const watchdog = new Watchdog(intOption(args, 'watchdog', DEFAULT_WATCHDOG_MS / 1000, { min: 1, max: 86_400 }) * 1000);
  // A loopback server's flags as given (--serve-path, --tools, --revision): a reproduce line without them audits another server.
  const revisionFlag =
    args.options.revision !== undefined && clientCmd === undefined ? ` --revision ${quote(stringOption(args, 'revision')!)}` : '';
  const reachArgs = [...callArgs, ...reach.reproduce].map((a) => ` ${a}`).join('');
  const serverArgs = loopback ? `${wireSideArgs(args).server}${revisionFlag}${reachArgs}` : `--server ${quote(serverText!)}`;
  const clientRevision = args.options.revision !== undefined ? ` --revision ${harnessRevision}` : '';
  const subjectArgs = clientCmd !== undefined ? `--client-cmd ${quote(clientCmd)}${clientRevision} ${serverArgs}` : serverArgs;
  const progress = !args.options.quiet && !args.options.json;
  const started = Date.now();
  let served: ServedProcess | null = null;
  try {
    let server = (await loopbackServer(args, tools, watchdog, (p) => (served = p), reach.upstream)) ?? inProcessServer(serverText!);
    serverRevisions(server, loopbackRevisions);
    // A real server's own tools, and a fault-free run that works with them, before any scenario.
    let toolChoice: ToolChoice | undefined;
    if (server.kind === 'loopback' && clientCmd === undefined) {
      ({ server, choice: toolChoice } = await realServerTools(server, args, loopbackRevisions));
      if (progress) process.stderr.write(`audit: ${toolChoice.said}\n`);
    }
    const onScenario = (done: number, total: number, name: string) => {
      if (progress)
        process.stderr.write(
          name ? `audit: ${done + 1}/${total} ${name}\n` : `audit: ${total} scenarios in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
        );
    };
    // A client that cannot run the fault-free workload would make every scenario not applicable: exit 2 first.
    const client = { kind: 'cmd' as const, command: clientCmd ?? '', watchdog, revision: harnessRevision };
    const audited =
      clientCmd !== undefined
        ? requireWorkingReference(
            'audit --client-cmd',
            (workload) => runWire({ client, server }, { workload, plan: [] }),
            CLIENT_REFERENCE,
          ).then(() =>
            runClientAudit(server, { command: clientCmd, sidesArgs: subjectArgs, watchdog, only, onScenario, revision: harnessRevision }),
          )
        : runAudit(server, { serverArgs, loopbackRevisions, only, onScenario, ...(toolChoice ? { toolChoice } : {}) });
    const ended = await Promise.race([audited.then((result) => ({ result })), watchdog.aborted.then((aborted) => ({ aborted }))]);
    if ('aborted' in ended) {
      audited.catch(() => {});
      // A client's run stops once the watchdog has fired (proxy-run.ts): let it end its process group first.
      if (clientCmd !== undefined) await Promise.race([audited.then(nothing, nothing), realSleep(3000)]);
      out.write(
        `audit ${subjectArgs}\noutcome ${ended.aborted.outcome}: ${ended.aborted.why}\nno verdict: the audit did not finish (exit 4)\n`,
      );
      return EXIT.incomplete;
    }
    const result = ended.result;
    const hide = (text: string) => redact(text, reach.secrets);
    if (args.options.json) out.write(hide(`${formatJson({ ...result, timing: { wallMs: Date.now() - started } })}\n`));
    else out.write(hide(renderAuditText(result)));
    if (outDir !== undefined) for (const f of writeOut(result, outDir, hide)) if (!args.options.json) out.write(`wrote ${f}\n`);
    const strictFails = args.options.strict === true && result.conforms === false;
    return result.passed && !strictFails ? EXIT.ok : EXIT.violated;
  } catch (e) {
    // A server's answer quoted in a message may echo a credential back: never printed.
    if (e instanceof LoopbackError || e instanceof UsageError) throw new UsageError(redact(e.message, reach.secrets));
    throw e;
  } finally {
    await endWireRun(watchdog, served);
  }
}

export const command = {
  name: 'audit',
  summary: 'run the fixed fault scenarios against one server; verdict and evidence per scenario',
  run: runAuditCommand,
};

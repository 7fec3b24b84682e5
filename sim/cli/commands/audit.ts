// `mcp-faultsim audit`: the fixed scenario set (audit/scenarios.ts) against one server: an in-process
// preset, the model (a knob list), `--serve CMD` or `--target URL`; or, with `--client-cmd CMD`, the
// client scenarios (audit/client/scenarios.ts) against a client process through the loopback fault
// proxy, the server then the constant (the model by default). Prints a table of verdicts with
// evidence; `--out DIR` writes audit.md, audit.html, audit.json and audit.junit.xml as one set.
// The command line is read into one AuditRequest (audit-request.ts); this file runs it.
import { join } from 'node:path';
import type { runClientAudit } from '../../audit/client/runner.ts';
import type { HarnessRevision } from '../../wire/process/cmd-client.ts';
import { auditClientRevisions, manifestEntry } from './audit-client-revisions.ts';
import { runAudit, type AuditResult } from '../../audit/server/runner.ts';
import type { ToolChoice } from '../../audit/server/tool-choice.ts';
import { combination } from '../../../models/policies.ts';
import { renderAuditHtml } from '../../../reports/audit-html.ts';
import { renderAuditJunit } from '../../../reports/audit-junit.ts';
import { renderAuditMarkdown, renderAuditText } from '../../../reports/audit-text.ts';
import { formatJson } from '../../../reports/json-format.ts';
import { LoopbackError, type ServedProcess } from '../../wire/process/loopback.ts';
import type { Aborted } from '../../wire/process/watchdog.ts';
import { withinRealMs } from '../../wire/protocol/real-timers.ts';
import { serverPreset, WirePresetError, type WireServerSpec } from '../../wire/setup.ts';
import { parseArgs, stringOption } from '../args.ts';
import { realServerTools, serverTools } from '../audit-real-server.ts';
import { EXIT, UsageError } from '../errors.ts';
import { replaceFolder } from '../files.ts';
import { parseServer } from '../knobs.ts';
import { redact } from '../redact.ts';
import { presetTools } from '../tool-options.ts';
import { endWireRun, loopbackServer, quote } from '../wire-server.ts';
import { auditHelp } from './audit-help.ts';
import { applyBaseline, baselineRequest, type BaselineRequest } from './audit-baseline.ts';
import { auditNonPasses } from '../../audit/baseline.ts';
import { conformanceRuns, conformanceSuite, withConformance } from './audit-conformance.ts';
import { AUDIT_OPTIONS, clientAuditServer, clientsAudit } from './audit-options.ts';
import { auditRequest, OUT_FILES, type AuditRequest } from './audit-request.ts';
import { findRevisions, revisionsToAudit } from '../../audit/server/revisions.ts';
import type { Revision } from '../../../models/policies.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

type Audited = Awaited<ReturnType<typeof runAudit>> | Awaited<ReturnType<typeof runClientAudit>>;

const nothing = () => {};

export async function runAuditCommand(argv: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const args = parseArgs(argv, AUDIT_OPTIONS, 'audit');
  if (args.options.help) {
    out.write(auditHelp());
    return EXIT.ok;
  }
  if (args.positionals.length) throw new UsageError(`audit: unexpected argument '${args.positionals[0]}'`);
  const manifest = stringOption(args, 'clients');
  if (manifest !== undefined) return clientsAudit(args, manifest, out);
  const r = auditRequest(args);
  return runRequest(r, baselineRequest(args, `mcp-faultsim audit ${r.subjectArgs}${r.conformance ? ' --conformance' : ''}`), out);
}

/** Start the server, run the audit under the watchdog, print what it found; whatever happens, stop what was started. */
async function runRequest(r: AuditRequest, baseline: BaselineRequest, out: NodeJS.WritableStream): Promise<number> {
  const started = Date.now();
  let served: ServedProcess | null = null;
  // A missing suite is known before anything starts.
  const suite = r.conformance ? conformanceSuite() : null;
  try {
    const { server, toolChoice, revisions, revisionsFound, speaks } = await auditedServer(r, (p) => (served = p));
    const found = revisions ? { loopbackRevisions: revisions, revisionsFound, speaks } : {};
    // The suite first, on the server as it booted (the audit's scenarios restart it).
    if (suite && r.progress)
      process.stderr.write(`audit: the conformance suite, --requirements ${(revisions ?? r.loopbackRevisions).join(', ')}\n`);
    // --conformance needs --serve or --target (declared): the server is a loopback one.
    const runs = suite && server.kind === 'loopback' ? await conformanceRuns(suite, server, revisions ?? r.loopbackRevisions) : [];
    const audited = startAudit({ ...r, ...found }, server, toolChoice, started);
    const ended = await Promise.race([audited.then((result) => ({ result })), r.watchdog.aborted.then((aborted) => ({ aborted }))]);
    if ('aborted' in ended) return await reportAborted(r, audited, ended.aborted, out);
    return printResult(r, suite ? withConformance(ended.result, runs, suite) : ended.result, started, baseline, out);
  } catch (e) {
    // A server's answer quoted in a message may echo a credential back: never printed.
    if (e instanceof LoopbackError || e instanceof UsageError) throw new UsageError(redact(e.message, r.access.secrets));
    throw e;
  } finally {
    await endWireRun(r.watchdog, served);
  }
}

/** The server audited, or a client is audited against; a real one with its own tools chosen and a fault-free run
 *  that works with them, before any scenario. */
async function auditedServer(
  r: AuditRequest,
  onServed: (p: ServedProcess) => void,
): Promise<{ server: WireServerSpec; toolChoice?: ToolChoice; revisions?: Revision[]; revisionsFound?: string; speaks?: string[] }> {
  const server =
    (await loopbackServer(r.args, presetTools(r.tools), r.watchdog, onServed, r.access.upstream)) ?? inProcessServer(r.serverText!);
  if (server.kind !== 'loopback' || r.clientCmd !== undefined) return { server };
  // The server is asked which revisions it speaks; none the audit can run (or none of those asked): exit 2.
  const found = await findRevisions(server);
  const { audit: revisions, said, speaks } = revisionsToAudit(found, r.revisionGiven ? r.loopbackRevisions : null);
  // Refused everywhere: the tool listing says why in its own words where it fails too (a 401, a wrong path).
  if (!revisions.length) await serverTools(server, r.tools, r.loopbackRevisions[0]!);
  if (!revisions.length)
    throw new UsageError(`the server speaks no revision the audit can run${r.revisionGiven ? ' of those --revision asks' : ''}: ${said}`);
  if (r.progress) process.stderr.write(`audit: ${said}\n`);
  const { server: chosen, choice } = await realServerTools(server, r.tools, revisions);
  if (r.progress) process.stderr.write(`audit: ${choice.said}\n`);
  return { server: chosen, toolChoice: choice, revisions, revisionsFound: said, speaks };
}

function inProcessServer(text: string): WireServerSpec {
  try {
    return serverPreset(text) ?? { kind: 'model', policy: combination({ server: parseServer(text) }, NO_ADDITIONS).server };
  } catch (e) {
    if (e instanceof WirePresetError) throw new UsageError(e.message);
    throw e;
  }
}

function startAudit(
  r: AuditRequest & { revisionsFound?: string; speaks?: string[] },
  server: WireServerSpec,
  toolChoice: ToolChoice | undefined,
  started: number,
): Promise<Audited> {
  const onScenario = (done: number, total: number, name: string) => {
    if (r.progress)
      process.stderr.write(
        name ? `audit: ${done + 1}/${total} ${name}\n` : `audit: ${total} scenarios in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
      );
  };
  const { only, watchdog, harnessRevision: revision } = r;
  if (r.clientCmd === undefined)
    return runAudit(server, {
      serverArgs: r.serverArgs,
      loopbackRevisions: r.loopbackRevisions,
      ...(r.revisionsFound !== undefined ? { revisionsFound: r.revisionsFound } : {}),
      ...(r.speaks !== undefined ? { speaks: r.speaks } : {}),
      only,
      onScenario,
      ...(toolChoice ? { toolChoice } : {}),
    });
  // A client that cannot run the fault-free workload would make every scenario not applicable: exit 2
  // first (auditClientRevisions). Without --revision: every revision its manifest entry lists.
  const command = r.clientCmd;
  const entry = manifestEntry(command, process.cwd());
  const revisions: HarnessRevision[] = r.revisionGiven || !entry ? [revision] : entry.revisions;
  const serverOf = (rev: HarnessRevision) =>
    r.serverGiven
      ? { server, args: r.serverArgs }
      : { server: inProcessServer(clientAuditServer(rev)), args: `--server ${quote(clientAuditServer(rev))}` };
  const clientArgs = (rev: HarnessRevision) =>
    `--client-cmd ${quote(command)}${r.revisionGiven || revisions.length > 1 ? ` --revision ${rev}` : ''}`;
  return auditClientRevisions({ revisions, serverOf, ...(entry ? { entry } : {}) }, { command, clientArgs, watchdog, only, onScenario });
}

async function reportAborted(r: AuditRequest, audited: Promise<Audited>, aborted: Aborted, out: NodeJS.WritableStream): Promise<number> {
  audited.catch(() => {});
  // A client's run stops once the watchdog has fired (proxy-run.ts): let it end its process group first.
  if (r.clientCmd !== undefined) await withinRealMs(audited.then(nothing, nothing), 3000, undefined);
  out.write(`audit ${r.subjectArgs}\noutcome ${aborted.outcome}: ${aborted.why}\nno verdict: the audit did not finish (exit 4)\n`);
  return EXIT.incomplete;
}

function printResult(r: AuditRequest, result: Audited, started: number, baseline: BaselineRequest, out: NodeJS.WritableStream): number {
  const hide = (text: string) => redact(text, r.access.secrets);
  if (r.json) out.write(hide(`${formatJson({ ...result, timing: { wallMs: Date.now() - started } })}\n`));
  else out.write(hide(renderAuditText(result)));
  if (r.outDir !== undefined) for (const f of writeOut(result, r.outDir, hide)) if (!r.json) out.write(`wrote ${f}\n`);
  const strictFails = r.strict && result.conforms === false;
  // With --baseline the exit is the baseline's: exactly the expected non-passes (audit/baseline.ts).
  const section = r.clientCmd !== undefined ? 'client' : 'server';
  const versus = applyBaseline(baseline, section, auditNonPasses(result, r.strict), out, r.json);
  if (versus !== null) return versus;
  return result.passed && !strictFails ? EXIT.ok : EXIT.violated;
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

export const command = {
  name: 'audit',
  run: runAuditCommand,
};

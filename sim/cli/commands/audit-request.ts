// One audit of a server or of a client process as the command line asks for it, read once into a value
// before anything starts: who is audited against what, which scenarios, where the results go, and the
// flags that name the subject again in every reproduce line. The rules between the options were
// checked as they were parsed (audit-options.ts); what is read here is each option's value.
import { existsSync, readdirSync } from 'node:fs';
import type { ToolRequest } from '../../audit/server/tool-choice.ts';
import { CLIENT_AUDIT_ORDER } from '../../audit/client/scenarios.ts';
import type { HarnessRevision } from '../../wire/process/cmd-client.ts';
import { Watchdog } from '../../wire/process/watchdog.ts';
import type { Revision } from '../../../models/policies.ts';
import { stringOption, type Parsed } from '../args.ts';
import { UsageError } from '../errors.ts';
import { callFlags, toolRequest } from '../tool-options.ts';
import { upstreamOptions, type UpstreamOptions } from '../upstream-options.ts';
import { wireSideArgs } from '../wire-check.ts';
import { quote, watchdogMs } from '../wire-server.ts';
import { clientAuditServer, harnessRevisionOption, onlyOption, revisionsOption } from './audit-options.ts';

export const OUT_FILES = ['audit.md', 'audit.html', 'audit.json', 'audit.junit.xml'];

export interface AuditRequest {
  /** As parsed: where a loopback server is (`--target`, `--serve`, `--serve-path`: wire-server.ts reads them). */
  args: Parsed;
  /** The client process audited (`--client-cmd`); none: the server is. */
  clientCmd: string | undefined;
  /** The in-process server (`--server`, or the model a client is audited against), when no loopback server is named. */
  serverText: string | undefined;
  /** The revision a client process is asked to speak (`default` for a server audit). */
  harnessRevision: HarnessRevision;
  /** `--revision` was given: without it a real server is audited in every revision it is found to
   *  speak, and a client in every revision its manifest entry lists. */
  revisionGiven: boolean;
  /** `--server`, `--serve` or `--target` names the server (else a client meets the model in each revision). */
  serverGiven: boolean;
  /** The revisions a loopback server is audited in. */
  loopbackRevisions: Revision[];
  tools: ToolRequest;
  access: UpstreamOptions;
  only: string[];
  outDir: string | undefined;
  watchdog: Watchdog;
  /** The flags that name the server, and the whole subject (the client process first, if any), for reproduce lines. */
  serverArgs: string;
  subjectArgs: string;
  json: boolean;
  strict: boolean;
  /** `--conformance`: the official suite runs too, its checks merged into the spec lens (audit-conformance.ts). */
  conformance: boolean;
  /** Progress on stderr: not with --quiet or --json. */
  progress: boolean;
}

export function auditRequest(args: Parsed): AuditRequest {
  const clientCmd = stringOption(args, 'client-cmd');
  const loopback = args.options.serve !== undefined || args.options.target !== undefined;
  const harnessRevision = clientCmd !== undefined ? harnessRevisionOption(args) : 'default';
  const serverText =
    stringOption(args, 'server') ?? (clientCmd !== undefined && !loopback ? clientAuditServer(harnessRevision) : undefined);
  const tools = toolRequest(args);
  const access = upstreamOptions(args);
  const only = onlyOption(args, clientCmd !== undefined ? CLIENT_AUDIT_ORDER : undefined);
  const outDir = stringOption(args, 'out');
  if (outDir !== undefined) checkOut(outDir);
  const serverArgs = loopback ? loopbackArgs(args, clientCmd, tools, access) : `--server ${quote(serverText!)}`;
  const clientRevision = args.options.revision !== undefined ? ` --revision ${harnessRevision}` : '';
  return {
    args,
    clientCmd,
    serverText,
    harnessRevision,
    revisionGiven: args.options.revision !== undefined,
    serverGiven: loopback || args.options.server !== undefined,
    loopbackRevisions: clientCmd !== undefined ? ['2025-11-25'] : revisionsOption(args),
    tools,
    access,
    only,
    outDir,
    watchdog: new Watchdog(watchdogMs(args)),
    serverArgs,
    subjectArgs: clientCmd !== undefined ? `--client-cmd ${quote(clientCmd)}${clientRevision} ${serverArgs}` : serverArgs,
    json: args.options.json === true,
    strict: args.options.strict === true,
    conformance: args.options.conformance === true,
    progress: !args.options.quiet && !args.options.json,
  };
}

/** A loopback server's flags as given (--serve-path, --tools, --revision, its calls and how it is reached): a
 *  reproduce line without them audits another server. Header values never: upstream-options.ts. */
function loopbackArgs(args: Parsed, clientCmd: string | undefined, tools: ToolRequest, access: UpstreamOptions): string {
  const revision = stringOption(args, 'revision');
  const revisionFlag = revision !== undefined && clientCmd === undefined ? ` --revision ${quote(revision)}` : '';
  const accessArgs = [...callFlags(tools), ...access.reproduce].map((a) => ` ${a}`).join('');
  return `${wireSideArgs(args).server}${revisionFlag}${accessArgs}`;
}

/** The out folder holds the audit set only: replacing it whole must not take a user's files with it. */
function checkOut(out: string): void {
  if (!existsSync(out)) return;
  const other = readdirSync(out).filter((f) => !OUT_FILES.includes(f));
  if (other.length)
    throw new UsageError(`--out ${out} holds other files (${other.slice(0, 3).join(', ')}): give an empty or audit-only folder`);
}

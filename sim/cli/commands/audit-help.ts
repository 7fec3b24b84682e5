// `mcp-faultsim audit --help`: what the audit does to a server and to a client, every option with its
// rules (from the option table), the scenarios and probes by name, and the exit statuses.
import { CLIENT_SCENARIOS, NOT_FOR_CLIENTS } from '../../audit/client/scenarios.ts';
import { PROBES } from '../../audit/server/probes.ts';
import { SCENARIOS } from '../../audit/scenarios.ts';
import { helpText } from '../args.ts';
import { EXIT_RULE } from '../../core/audit-verdict.ts';
import { AUDIT_OPTIONS, CLIENT_AUDIT_SERVER } from './audit-options.ts';

export function auditHelp(): string {
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
  return helpText(
    usage,
    summary,
    AUDIT_OPTIONS,
    `\nscenarios:\n${list}\n\nfor a client (--client-cmd):\n${clientList}\n\nexit status: ${EXIT_RULE}.\nWith --strict also 1 when the spec lens finds a violation (with --conformance: or a scored check the suite fails); 2 also for a bad manifest; 4 a run against a real server or\nclient did not finish (watchdog, server-failed; with --clients: an audit whose harness failed its fault-free run).\n`,
  );
}

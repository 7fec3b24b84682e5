// The ecosystem matrix as data: every manifest client (client/manifest.ts) in every revision it
// speaks, against the model server and the official SDK v2 server in that revision; one client
// audit (client/runner.ts) per cell; then one row per (client, revision, server, scenario) with both
// verdicts, and the non-passes with their evidence, the requirement they break and the command that
// reproduces them. The CLI (commands/audit-clients.ts) runs the jobs; reports/ render the matrix.
import { combination, type Revision } from '../../../models/policies.ts';
import type { AuditVerdict } from '../../core/audit-verdict.ts';
import { passes } from '../../core/audit-verdict.ts';
import { serverPreset, type WireServerSpec } from '../../wire/setup.ts';
import type { ClientAuditResult } from './runner.ts';
import type { SpecMark } from '../client-library.ts';
import type { ManifestClient } from './manifest.ts';
import { requirementById } from '../requirements.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';
import type { BaselineEntry } from '../baseline.ts';

export const MATRIX_SERVERS = ['model', 'sdk2'] as const;
export type MatrixServer = (typeof MATRIX_SERVERS)[number];

export interface MatrixJob {
  client: ManifestClient;
  /** The command as run (Node 24 resolved). */
  command: string;
  revision: Revision;
  server: MatrixServer;
  /** How the server is named on a command line. */
  serverArgs: string;
}

export interface MatrixAudit {
  client: string;
  revision: Revision;
  server: MatrixServer;
  command: string;
  serverArgs: string;
  /** The audit, or why it did not run to the end (a harness that fails its fault-free run, a watchdog). */
  result: ClientAuditResult | { error: string };
}

export interface ClientMatrix {
  manifest: string;
  clients: ManifestClient[];
  audits: MatrixAudit[];
  /** One per scenario that ran (matrixRows), for the reports. */
  rows: MatrixRow[];
  passed: boolean;
  /** The request timeout the agent verdict's runs give the harness (the library runs give none). */
  agentTimeoutMs: number;
  /** Wall-clock figures only (kept apart so the rest can be compared). */
  timing?: { wallMs: number; jobs: number };
}

export interface MatrixRow {
  client: string;
  revision: Revision;
  server: MatrixServer;
  scenario: string;
  plan: string;
  agent: AuditVerdict;
  agentWhy: string;
  evidence: string;
  /** The library's behaviour (client-library.ts), and its verdict in the audit's vocabulary. */
  library: string;
  libraryVerdict: AuditVerdict;
  libraryWhy: string;
  libraryEvidence: string;
  /** The requirements the library run broke (MUST and SHOULD). */
  broken: (SpecMark & { text: string })[];
  reproduce: string;
  /** The agent's verdict or the library's does not pass (isNonPass). */
  nonPass: boolean;
}

/** The model server a client meets in revision R (it streams every call: the cuts need a stream). */
export function modelServerArgs(r: Revision): string {
  return `streaming=accept-header,protocol=${r}`;
}

export function matrixServer(server: MatrixServer, r: Revision): WireServerSpec {
  if (server === 'sdk2') return serverPreset(`sdk2-sse,protocol=${r}`)!;
  return { kind: 'model', policy: combination({ server: { streaming: 'accept-header', protocol: r } }, NO_ADDITIONS).server };
}

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** Every (client, revision, server) the manifest asks for, in manifest order. */
export function matrixJobs(clients: readonly ManifestClient[], command: (c: ManifestClient) => string): MatrixJob[] {
  return clients.flatMap((client) =>
    client.revisions.flatMap((revision) =>
      MATRIX_SERVERS.map((server) => ({
        client,
        command: command(client),
        revision,
        server,
        serverArgs: `--server ${quote(server === 'sdk2' ? `sdk2-sse,protocol=${revision}` : modelServerArgs(revision))}`,
      })),
    ),
  );
}

/** How a job is named on a command line, less `--only`. */
export function jobArgs(j: Pick<MatrixJob, 'command' | 'revision' | 'serverArgs'>): string {
  return `--client-cmd ${quote(j.command)} --revision ${j.revision} ${j.serverArgs}`;
}

/** One row per scenario that ran (not applicable ones left out). */
export function matrixRows(m: { audits: readonly MatrixAudit[] }): MatrixRow[] {
  const rows: MatrixRow[] = [];
  for (const a of m.audits) {
    if ('error' in a.result) continue;
    for (const s of a.result.scenarios) {
      if (s.verdict === 'not applicable' || !s.library) continue;
      const broken = s.library.marks
        .filter((k) => k.status === 'broken')
        .map((k) => ({ ...k, text: requirementById(k.requirement)?.text ?? '' }));
      rows.push({
        client: a.client,
        revision: a.revision,
        server: a.server,
        scenario: s.name,
        plan: s.plan,
        agent: s.verdict,
        agentWhy: s.why,
        evidence: s.evidence,
        library: s.library.behaviour,
        libraryVerdict: s.library.verdict,
        libraryWhy: s.library.why,
        libraryEvidence: s.library.evidence,
        broken,
        reproduce: `mcp-faultsim audit ${jobArgs(a)} --only ${s.name}`,
        nonPass: !passes(s.verdict) || !passes(s.library.verdict),
      });
    }
  }
  return rows;
}

/** A row that does not pass: the agent's verdict, or the library's (a hang, a wait for its own timeout,
 *  stuck, a MUST broken), by the one exit rule (audit-verdict.ts). A broken SHOULD is shown, and alone is no non-pass. */
export function isNonPass(r: Pick<MatrixRow, 'agent' | 'libraryVerdict'>): boolean {
  return !passes(r.agent) || !passes(r.libraryVerdict);
}

/** The matrix passes when every audit finished and no printed row fails (the exit follows the table). */
export function matrixPassed(audits: readonly MatrixAudit[]): boolean {
  return audits.every((a) => !('error' in a.result)) && matrixRows({ audits }).every((r) => !isNonPass(r));
}

/** The matrix's non-passes as baseline entries (audit/baseline.ts): one per row that does not pass,
 *  named by client, revision, server and scenario, with the MUSTs its library run broke. */
export function matrixNonPasses(rows: readonly MatrixRow[]): BaselineEntry[] {
  return rows
    .filter((r) => r.nonPass)
    .map((r) => ({
      id: `${r.client} ${r.revision} ${r.server} ${r.scenario}`,
      requirement: r.broken
        .filter((b) => b.level.startsWith('MUST'))
        .map((b) => b.requirement)
        .join(', '),
      reason: '',
      upstream: '',
    }));
}

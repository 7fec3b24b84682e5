// `audit --client-cmd CMD` without `--revision`: the client is audited in every revision its manifest
// entry lists (examples/clients/clients.json, found by its command), each against a server of that
// revision (the model in that revision, unless --server/--serve/--target names the server), and its
// library judged with the default timeout the entry declares. A command no manifest lists is audited
// in the revision its library picks (`default`). One result: the rows name their revision, and each
// reproduce line names the revision and the server it ran against.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { entryOfCommand, readManifest, type ManifestClient } from '../../audit/client/manifest.ts';
import { runClientAudit, type ClientAuditOptions, type ClientAuditResult } from '../../audit/client/runner.ts';
import type { HarnessRevision } from '../../wire/process/cmd-client.ts';
import type { WireServerSpec } from '../../wire/setup.ts';
import { runWire } from '../../wire/world.ts';
import { CLIENT_REFERENCE, requireWorkingReference } from '../reference-check.ts';

/** The manifest `--client-cmd` looks its command up in (from the working directory). */
export const CLIENT_MANIFEST = 'examples/clients/clients.json';

/** The manifest entry of this command, if the project's manifest lists it (a broken or absent
 *  manifest lists nothing: `--clients` is where a manifest is checked). */
export function manifestEntry(command: string, root: string): ManifestClient | undefined {
  const path = join(root, CLIENT_MANIFEST);
  if (!existsSync(path)) return undefined;
  try {
    return entryOfCommand(readManifest(path), command, root);
  } catch {
    return undefined;
  }
}

export interface RevisionsPlan {
  /** The revisions audited, in order. */
  revisions: HarnessRevision[];
  /** The server of each revision, and how a command line names it. */
  serverOf: (r: HarnessRevision) => { server: WireServerSpec; args: string };
  entry?: ManifestClient;
}

/** Every revision of the plan: a fault-free run that works first (else exit 2), then the audit. */
export async function auditClientRevisions(
  plan: RevisionsPlan,
  o: Omit<ClientAuditOptions, 'revision' | 'sidesArgs' | 'declaredTimeoutMs'> & { clientArgs: (r: HarnessRevision) => string },
): Promise<ClientAuditResult> {
  const results: ClientAuditResult[] = [];
  for (const revision of plan.revisions) {
    const { server, args } = plan.serverOf(revision);
    const client = { kind: 'cmd' as const, command: o.command, revision, ...(o.watchdog ? { watchdog: o.watchdog } : {}) };
    const named = plan.revisions.length > 1 ? ` in ${revision}` : '';
    await requireWorkingReference(
      `audit --client-cmd${named}`,
      (workload) => runWire({ client, server }, { workload, plan: [] }),
      CLIENT_REFERENCE,
    );
    results.push(
      await runClientAudit(server, {
        ...o,
        revision,
        sidesArgs: `${o.clientArgs(revision)} ${args}`,
        ...(plan.entry ? { declaredTimeoutMs: plan.entry.defaultTimeoutMs } : {}),
      }),
    );
  }
  return mergeRevisions(results);
}

/** The server of several audits in one phrase: the one server, or each revision's (`A in 2025-11-25,
 *  B in 2026-07-28`) where they differ: a header naming only the first would hide the second's. */
export function serversOf(results: readonly Pick<ClientAuditResult, 'server' | 'asked'>[]): string {
  const servers = [...new Set(results.map((r) => r.server))];
  return servers.length === 1 ? servers[0]! : results.map((r) => `${r.server} in ${r.asked}`).join(', ');
}

/** One result of the audits of one client in several revisions: their rows in order; it passes when each does. */
export function mergeRevisions(results: readonly ClientAuditResult[]): ClientAuditResult {
  const [first] = results;
  if (!first) throw new Error('no revision audited');
  if (results.length === 1) return first;
  const refused = results.map((r) => r.refused).filter((x): x is string => x !== undefined);
  return {
    ...first,
    server: serversOf(results),
    revisions: [...new Set(results.flatMap((r) => r.revisions))],
    scenarios: results.flatMap((r) => r.scenarios),
    pending: results.flatMap((r) => r.pending),
    passed: results.every((r) => r.passed),
    ...(refused.length ? { refused: refused.join('; ') } : {}),
  };
}

// Which protocol revisions a real server speaks, asked of the server itself before anything is
// audited (issue 37 item 1): `server/discover` (2026-07-28 servers MUST answer it with their
// supportedVersions), then `initialize` with each revision the audit knows of, older ones included,
// and the exact version each negotiates. The audit then runs the scenarios of every revision the server
// speaks (or, with --revision, of those asked that it speaks), and the report says what was found
// and how; a revision the server refused is never claimed.
import type { Revision } from '../../../models/policies.ts';
import type { WireServerSpec } from '../../wire/setup.ts';
import { MODERN, ProbeClient } from './probe-client.ts';

/** The 2025 revisions asked with `initialize`, newest first; the audit's scenarios speak the first. */
export const INITIALIZE_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

export interface FoundRevisions {
  /** The audit's scenario revisions the server speaks: 2025-11-25 (for any 2025 revision it negotiates), 2026-07-28. */
  speaks: Revision[];
  /** One line: what each question got, the exact versions negotiated. */
  how: string;
  /** Each scenario revision the server speaks, as the exact version it negotiated (2025-06-18 where it
   *  answered initialize 2025-11-25 with that) or listed in server/discover: what the report names. */
  exact: Partial<Record<Revision, string>>;
}

async function discover(c: ProbeClient): Promise<string[] | null> {
  const a = await c.discover();
  const versions = a.message?.result?.supportedVersions;
  return Array.isArray(versions) ? versions.map(String) : null;
}

/** Ask the server: server/discover, then initialize with each 2025 revision. */
export async function findRevisions(server: WireServerSpec): Promise<FoundRevisions> {
  const c = new ProbeClient(server);
  try {
    const discovered = await discover(c);
    const negotiated: string[] = [];
    const statuses = new Set<number>();
    for (const asked of INITIALIZE_REVISIONS) {
      const answer = await c.initialize(asked);
      statuses.add(answer.status);
      negotiated.push(`initialize ${asked} → ${answer.version ?? `refused (HTTP ${answer.status})`}`);
    }
    const legacy = negotiated.filter((n) => !n.includes('refused'));
    const versions = new Set(legacy.map((n) => n.split(' → ')[1]!));
    const speaks: Revision[] = [];
    const exact: FoundRevisions['exact'] = {};
    // The scenarios' client asks 2025-11-25 and goes on in what the server answers: the first answer is the exact one.
    const first = legacy[0]?.split(' → ')[1];
    if (first !== undefined && [...versions].some((v) => v.startsWith('2025-'))) {
      speaks.push('2025-11-25');
      exact['2025-11-25'] = first;
    }
    if (discovered?.includes(MODERN)) {
      speaks.push(MODERN);
      exact[MODERN] = MODERN;
    }
    const all = [...new Set([...versions, ...(discovered ?? [])])].sort();
    const how = `server/discover: ${discovered ? discovered.join(', ') : 'no supportedVersions'}; ${negotiated.join(', ')}: speaks ${all.join(', ') || 'none the audit knows'}${speaks.length ? '' : refusedHint(statuses)}`;
    return { speaks, how, exact };
  } finally {
    await c.close();
  }
}

/** Why every question was refused, where one status says it: a wrong path, missing credentials. */
function refusedHint(statuses: ReadonlySet<number>): string {
  if (statuses.size !== 1) return '';
  if (statuses.has(404))
    return ' (HTTP 404 to every request: is the MCP endpoint at another path? give it with --serve-path PATH, or the whole URL with --target)';
  if (statuses.has(401))
    return ' (HTTP 401 to every request: give the credentials with --header-env Authorization=ENVVAR, or the header the server wants, e.g. --header-env X-API-Key=ENVVAR)';
  return '';
}

/** The revisions audited, and what the report says of them: all the server speaks, or those asked
 *  (--revision) that it speaks, with where it speaks more or less than asked. */
export function revisionsToAudit(
  found: FoundRevisions,
  asked: readonly Revision[] | null,
): { audit: Revision[]; said: string; speaks: string[] } {
  const exactOf = (audit: Revision[]) => audit.map((r) => found.exact[r] ?? r);
  if (asked === null) return { audit: found.speaks, said: `revisions found: ${found.how}`, speaks: exactOf(found.speaks) };
  const audit = asked.filter((r) => found.speaks.includes(r));
  const less = asked.filter((r) => !found.speaks.includes(r));
  const more = found.speaks.filter((r) => !asked.includes(r));
  const notes = [
    ...(less.length ? [`--revision asked for ${less.join(', ')}, which the server does not speak (not audited)`] : []),
    ...(more.length ? [`the server also speaks ${more.join(', ')} (not asked: audit it without --revision)`] : []),
  ];
  return { audit, said: `revisions found: ${found.how}${notes.length ? `; ${notes.join('; ')}` : ''}`, speaks: exactOf(audit) };
}

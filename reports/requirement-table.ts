// docs/auditing.md's requirement table, rendered from the audit's list of the transport's and the
// HTTP-observable authorization's MUSTs and SHOULDs (sim/audit/transport-requirements.ts, passed in;
// reports/ takes only its types). One row per requirement: where it is, what it says, what judges
// it (the audit's probe or scenario, the audit's own client, or why black-box HTTP cannot see it),
// and the conformance suite's overlapping check. The block sits between two markers in the doc.
import type { TransportRequirement } from '../sim/audit/transport-requirements.ts';

/** A row as the audit's list holds it (a type only: reports/ takes the audit's types, never its values). */
export type RequirementRow = TransportRequirement;

export const TABLE_START = '<!-- requirement-table:start (generated: npm run -s requirements:docs) -->';
export const TABLE_END = '<!-- requirement-table:end -->';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function judgedBy(r: RequirementRow): string {
  if (r.probes.length) return r.probes.map((p) => `\`${p}\``).join(', ');
  if (r.ownClient) return "the audit's own clients (client-headers test); other clients: `audit-clients`";
  if (r.binds === 'client') return `client side: \`audit-clients\` where it observes it — ${r.observable}`;
  return `not probed — ${r.observable}`;
}

/** The table, with a count line, between its markers. */
export function renderRequirementTable(rows: readonly RequirementRow[]): string {
  const probed = rows.filter((r) => r.probes.length).length;
  const lines = [
    TABLE_START,
    '',
    `${rows.length} requirements (MUST, MUST NOT, SHOULD, SHOULD NOT) of Streamable HTTP and of the authorization flow observable over HTTP, in 2025-11-25 and 2026-07-28; ${probed} judged by a probe or scenario of \`audit\`.`,
    '',
    '| requirement | revision | level | binds | says | judged by | conformance suite |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) =>
      [
        '',
        `\`${r.slug}\``,
        r.revisions.length > 1 ? 'both' : r.revisions[0]!,
        r.level,
        r.binds,
        cell(r.quote),
        cell(judgedBy(r)),
        cell(r.suite),
        '',
      ]
        .join(' | ')
        .trim(),
    ),
    '',
    TABLE_END,
  ];
  return lines.join('\n');
}

/** The doc with its table block replaced by `table` (the markers must be there). */
export function withTable(doc: string, table: string): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error('docs/auditing.md has no requirement-table markers');
  return doc.slice(0, start) + table + doc.slice(end + TABLE_END.length);
}

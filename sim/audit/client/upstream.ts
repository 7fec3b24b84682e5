// The upstream status of each client non-pass (examples/clients/upstream.json, beside the manifest):
// the library's issue that reports the behaviour, or "none found" with the queries searched, so that
// a reader of docs/audit-clients.md knows whether a row is news to the library. A JSON object
//   { "searched": "when and where the trackers were searched",
//     "statuses": [ { client, revisions: [R…], scenarios: [S…], behaviour, issues: ["owner/repo#N (state: title)"…],
//                     noneFound?: "what was searched for and not found", queries?: ["…"] } ] }
// One entry covers both matrix servers (the model and sdk2): a library's behaviour is its own.
// An entry has issues, or noneFound with its queries, or both (an issue of the wrapped SDK, none in the
// wrapper's own tracker). Not read by the audit itself: the docs generator (bench/audit-clients-docs.ts)
// renders it and refuses a non-pass without one; test/examples/clients checks the page against it.
import { readFileSync } from 'node:fs';
import type { Revision } from '../../../models/policies.ts';
import type { MatrixRow } from './matrix.ts';

export interface UpstreamStatus {
  client: string;
  revisions: Revision[];
  scenarios: string[];
  /** What the library did, in a phrase (the row's evidence says it in full). */
  behaviour: string;
  /** `owner/repo#N (state: title)`: issues and pull requests that report or fix the behaviour. */
  issues: string[];
  /** Set when no issue of this library reports it: what was looked for. */
  noneFound?: string;
  queries?: string[];
}

export interface UpstreamFile {
  searched: string;
  statuses: UpstreamStatus[];
}

export class UpstreamError extends Error {
  override name = 'UpstreamError';
}

const ISSUE = /^[\w.-]+\/[\w.-]+#\d+ \((open|closed|merged)[^)]*\)/;

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string' && x.trim() !== '');

function parseStatus(raw: unknown, i: number): UpstreamStatus {
  const e = (raw ?? {}) as Record<string, unknown>;
  const at = `status ${i} (${String(e.client)})`;
  if (typeof e.client !== 'string' || !strings(e.revisions) || !strings(e.scenarios) || typeof e.behaviour !== 'string')
    throw new UpstreamError(`${at}: needs "client", "revisions", "scenarios" and "behaviour"`);
  const issues = e.issues ?? [];
  if (!strings(issues)) throw new UpstreamError(`${at}: "issues" must be an array of strings`);
  const bad = issues.find((x) => !ISSUE.test(x));
  if (bad) throw new UpstreamError(`${at}: issue ${JSON.stringify(bad)} is not "owner/repo#N (state: title)"`);
  const none = e.noneFound;
  if (none !== undefined && (typeof none !== 'string' || !strings(e.queries) || (e.queries as string[]).length === 0))
    throw new UpstreamError(`${at}: "noneFound" needs the "queries" searched`);
  if (issues.length === 0 && none === undefined) throw new UpstreamError(`${at}: give its "issues", or "noneFound" with the queries`);
  return {
    client: e.client,
    revisions: e.revisions as Revision[],
    scenarios: e.scenarios,
    behaviour: e.behaviour,
    issues,
    ...(none !== undefined ? { noneFound: none as string, queries: e.queries as string[] } : {}),
  };
}

export function parseUpstream(text: string): UpstreamFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UpstreamError(`not JSON: ${(e as Error).message}`);
  }
  const o = (raw ?? {}) as Record<string, unknown>;
  if (typeof o.searched !== 'string' || !Array.isArray(o.statuses)) throw new UpstreamError('needs "searched" and "statuses"');
  return { searched: o.searched, statuses: o.statuses.map(parseStatus) };
}

export const readUpstream = (path: string): UpstreamFile => parseUpstream(readFileSync(path, 'utf8'));

/** The status of a row: the entry naming its client, revision and scenario (any server). */
export function statusOf(file: UpstreamFile, row: Pick<MatrixRow, 'client' | 'revision' | 'scenario'>): UpstreamStatus | undefined {
  return file.statuses.find((s) => s.client === row.client && s.revisions.includes(row.revision) && s.scenarios.includes(row.scenario));
}

/** The status in one line: its issues, then "none found" where a tracker has none. */
export function statusText(s: UpstreamStatus): string {
  const issues = s.issues.join('; ');
  const none = s.noneFound ? `none found: ${s.noneFound} (searched: ${s.queries!.map((q) => `“${q}”`).join('; ')})` : '';
  return [issues, none].filter(Boolean).join('. ');
}

/** The non-pass rows without a status: the docs generator refuses them, the docs test fails on them. */
export function missingStatuses(file: UpstreamFile, rows: readonly MatrixRow[]): MatrixRow[] {
  return rows.filter((r) => r.nonPass && !statusOf(file, r));
}

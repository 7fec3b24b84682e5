// The upstream status of every verdict of docs/audit-servers.md that is not a pass: an issue number,
// or "none found" after a search of the project's tracker. The statuses are data
// (bench/audit-servers-upstream.json, written by hand after each search); this file reads them, says
// which verdicts of a table cell need one, and finds the status of each. The generator
// (audit-servers-docs.ts) prints them; test/docs/audit-servers-upstream.test.ts fails on a non-pass
// without one.
import { readFileSync } from 'node:fs';

interface Entry {
  scenario: string;
  /** The verdict as the cell says it: `loud`, `literal stuck`, `violates`, `protocol hazard`, … */
  verdict: string;
  /** The servers' column names, or `*` for every server. */
  servers: readonly string[] | '*';
  status: string;
}

const FILE = new URL('./audit-servers-upstream.json', import.meta.url);

export function upstreamStatuses(): readonly Entry[] {
  return (JSON.parse(readFileSync(FILE, 'utf8')) as { statuses: Entry[] }).statuses;
}

/** Resilience verdicts that are not a pass (`not tested` and `not applicable` judged nothing: no status). */
const NOT_PASS = new Set(['loud', 'silent', 'stuck', 'broken without faults', 'protocol hazard']);

/** The verdicts of a cell (`loud · literal stuck · violates`) that need an upstream status. */
export function nonPasses(cell: string): string[] {
  return cell.split(' · ').filter((part) => NOT_PASS.has(part.replace(/^literal /, '')) || part === 'violates');
}

/** The status of one non-pass, or undefined when the data file has none. */
export function statusOf(entries: readonly Entry[], server: string, scenario: string, verdict: string): string | undefined {
  return entries.find((e) => e.scenario === scenario && e.verdict === verdict && (e.servers === '*' || e.servers.includes(server)))?.status;
}

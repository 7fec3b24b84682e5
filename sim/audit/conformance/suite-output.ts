// What one run of the conformance suite left behind, read back: with `-o DIR` it writes one folder per
// scenario, `server-<scenario>-<ISO time>`, holding checks.json (an array of checks with no scenario
// field: the scenario is only in the folder's name); its stdout names the requirement set it ran
// ("Running requirements R (N scenarios)") and, under `--requirements`, the scenarios it ran but does
// not score for R ("Not scored for R: …" then "  ✗ name (pending)"). Pure: text and folder listings in,
// data out, so that the merge is tested on a saved run as well as on a live one.
import type { Revision } from '../../../models/policies.ts';

export type SuiteStatus = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';

export interface SuiteCheck {
  id: string;
  status: SuiteStatus;
  /** The suite's description, or its error message where the check failed. */
  message: string;
  /** The check's own details (status codes, results) where it gave any. */
  details?: Record<string, unknown>;
}

export interface SuiteScenario {
  name: string;
  /** Whether the requirement set scores it; an unscored one (pending, added after the release) is reported, never counted. */
  scored: boolean;
  /** Why not scored, as the suite says (`pending`, `added-after-release`). */
  unscoredWhy?: string;
  checks: SuiteCheck[];
}

export interface SuiteRun {
  revision: Revision;
  /** The suite's command line, as run (the relay's URL: no credential is on it). */
  command: string;
  scenarios: SuiteScenario[];
}

export class SuiteOutputError extends Error {
  override name = 'SuiteOutputError';
}

const FOLDER = /^server-(.+)-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/;

/** The scenario a result folder is of, or null for a folder that is not one. */
export function scenarioOfFolder(folder: string): string | null {
  return FOLDER.exec(folder)?.[1] ?? null;
}

/** The scenarios stdout says are run but not scored, with the suite's reason. */
export function unscoredOf(stdout: string, revision: Revision): Map<string, string> {
  const out = new Map<string, string>();
  const lines = stdout.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`Not scored for ${revision}:`));
  if (at < 0) return out;
  for (const line of lines.slice(at + 1)) {
    const m = /^\s+[✗✓]\s+(\S+)(?:\s+\(([^)]*)\))?\s*$/.exec(line);
    if (!m) break;
    out.set(m[1]!, m[2] ?? 'not scored');
  }
  return out;
}

const STATUSES: readonly SuiteStatus[] = ['SUCCESS', 'FAILURE', 'WARNING', 'SKIPPED', 'INFO'];

/** One checks.json, parsed. */
export function checksOf(text: string, where: string): SuiteCheck[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new SuiteOutputError(`${where}: not JSON`);
  }
  if (!Array.isArray(raw)) throw new SuiteOutputError(`${where}: not a list of checks`);
  return raw.map((c: Record<string, unknown>, i) => {
    const status = c.status as SuiteStatus;
    if (typeof c.id !== 'string' || !STATUSES.includes(status)) throw new SuiteOutputError(`${where}: check #${i + 1} has no id or status`);
    const message = String(c.errorMessage ?? c.description ?? '');
    const details = c.details && typeof c.details === 'object' ? (c.details as Record<string, unknown>) : undefined;
    return { id: c.id, status, message, ...(details ? { details } : {}) };
  });
}

/** A scenario the suite could not run (it threw: a server that answered a request with no JSON-RPC,
 *  say) leaves its folder without checks.json, and the suite counts it as one failed check ("0 passed,
 *  1 failed"); so does this, with the error the suite printed on stderr. */
export const DID_NOT_RUN = 'scenario-did-not-run';

function didNotRun(scenario: string, stderr: string): SuiteCheck {
  const line = stderr.split('\n').find((l) => l.startsWith(`Failed to run scenario ${scenario}: `));
  const why = line
    ? line.slice(`Failed to run scenario ${scenario}: `.length).replace(/^Error: /, '')
    : 'it wrote no checks.json and named no error';
  return { id: DID_NOT_RUN, status: 'FAILURE', message: `the suite could not run this scenario: ${why}` };
}

/** A whole run: its stdout and stderr, and its result folders (`[folder name, checks.json text]`; null
 *  where the folder has no checks.json), in folder order. */
export function readSuiteRun(
  revision: Revision,
  command: string,
  stdout: string,
  folders: readonly [string, string | null][],
  stderr = '',
): SuiteRun {
  if (!stdout.includes(`Running requirements ${revision}`))
    throw new SuiteOutputError(`the suite did not run the requirements of ${revision}: ${stdout.trim().split('\n')[0] ?? '(no output)'}`);
  const unscored = unscoredOf(stdout, revision);
  const scenarios = folders
    .map(([folder, text]) => ({ name: scenarioOfFolder(folder), text, folder }))
    .filter((f): f is { name: string; text: string | null; folder: string } => f.name !== null)
    .map(({ name, text, folder }) => {
      const why = unscored.get(name);
      const checks = text === null ? [didNotRun(name, stderr)] : checksOf(text, folder);
      return { name, scored: why === undefined, ...(why !== undefined ? { unscoredWhy: why } : {}), checks };
    });
  return { revision, command, scenarios: scenarios.sort((a, b) => a.name.localeCompare(b.name)) };
}

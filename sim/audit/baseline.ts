// A CI baseline of an audit's expected non-passes, after the official conformance suite's
// `--expected-failures` file: YAML with a `server:` and a `client:` list; a run exits 0 when every
// non-pass it prints is listed, and fails on a non-pass the list lacks (a regression) and on an entry
// the run no longer shows (stale: a fix that must be noticed and the entry removed). Each entry names
// the row (`id`: the scenario, with the revision and server where a client audit has several) and the
// requirement it breaks, with a reason and an upstream link for a person to fill in. Pure text in,
// text out: the command reads and writes the file (cli/commands/audit-baseline.ts).
import { passes } from '../core/audit-verdict.ts';
import type { AuditResult } from './audit-row.ts';
import { suiteNonPasses } from './conformance/merge.ts';

export type BaselineSection = 'server' | 'client';

export interface BaselineEntry {
  /** The row: `stream-cut-call`, `stream-cut-call 2025-11-25`, `sdk-v2 2025-11-25 model unknown-session`. */
  id: string;
  /** The requirement(s) the row breaks ('' where it names none). */
  requirement: string;
  reason: string;
  upstream: string;
}

export interface Baseline {
  server: BaselineEntry[];
  client: BaselineEntry[];
}

export class BaselineError extends Error {
  override name = 'BaselineError';
}

const key = (e: Pick<BaselineEntry, 'id' | 'requirement'>) => `${e.id}\u0000${e.requirement}`;
const yamlString = (s: string) => JSON.stringify(s);

/** The file `--write-baseline` writes: this run's non-passes, reason and upstream left to fill in. */
export function formatBaseline(section: BaselineSection, entries: readonly BaselineEntry[], command: string): string {
  const lines = [
    '# mcp-faultsim audit baseline: the non-passes this audit is expected to print (the conformance',
    "# suite's --expected-failures convention). `audit --baseline FILE` exits 0 when the run prints",
    '# exactly these; a non-pass not listed fails the run, and so does an entry the run no longer shows',
    '# (remove it: something was fixed). Fill in each reason and upstream link.',
    `# written by: ${command}`,
  ];
  for (const s of ['server', 'client'] as const) {
    const list = s === section ? entries : [];
    lines.push(`${s}:${list.length ? '' : ' []'}`);
    for (const e of list)
      lines.push(
        `  - id: ${yamlString(e.id)}`,
        `    requirement: ${yamlString(e.requirement)}`,
        `    reason: ${yamlString(e.reason)}`,
        `    upstream: ${yamlString(e.upstream)}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

function scalar(raw: string, at: string): string {
  const v = raw.trim();
  if (v.startsWith('"')) {
    try {
      return JSON.parse(v) as string;
    } catch {
      throw new BaselineError(`${at}: a quoted value that does not end where it should: ${v}`);
    }
  }
  if (v.startsWith("'")) {
    if (!v.endsWith("'") || v.length < 2) throw new BaselineError(`${at}: a quoted value that does not end where it should: ${v}`);
    return v.slice(1, -1).replaceAll("''", "'");
  }
  return v.replace(/\s+#.*$/, '');
}

/** The file read back: the subset of YAML formatBaseline writes (and the conformance suite's plain
 *  `- scenario` entries, which carry no requirement). A line it cannot read is one BaselineError. */
export function parseBaseline(text: string, file: string): Baseline {
  const out: Baseline = { server: [], client: [] };
  let section: BaselineSection | null = null;
  let entry: BaselineEntry | null = null;
  text.split('\n').forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    if (/^\s*(#.*)?$/.test(line)) return;
    const top = /^(server|client):\s*(\[\])?\s*(#.*)?$/.exec(line);
    if (top) {
      section = top[1] as BaselineSection;
      entry = null;
      return;
    }
    if (!section) throw new BaselineError(`${at}: expected 'server:' or 'client:' before any entry`);
    const item = /^\s*-\s+(?:(\w+):\s*(.*)|(.*))$/.exec(line);
    const field = /^\s+(\w+):\s*(.*)$/.exec(line);
    if (item) {
      entry = { id: '', requirement: '', reason: '', upstream: '' };
      out[section as BaselineSection].push(entry);
      if (item[3] !== undefined) entry.id = scalar(item[3], at);
      else setField(entry, item[1]!, scalar(item[2]!, at), at);
    } else if (field && entry) setField(entry, field[1]!, scalar(field[2]!, at), at);
    else throw new BaselineError(`${at}: not a baseline line: ${line.trim()}`);
  });
  for (const s of ['server', 'client'] as const)
    for (const e of out[s]) if (!e.id) throw new BaselineError(`${file}: an entry under ${s}: has no id`);
  return out;
}

function setField(e: BaselineEntry, name: string, value: string, at: string): void {
  if (name !== 'id' && name !== 'requirement' && name !== 'reason' && name !== 'upstream')
    throw new BaselineError(`${at}: unknown field '${name}' (id, requirement, reason, upstream)`);
  e[name] = value;
}

export interface BaselineOutcome {
  /** Non-passes of the run the baseline lists. */
  expected: BaselineEntry[];
  /** Non-passes the baseline lacks: regressions. */
  added: BaselineEntry[];
  /** Entries the run no longer shows: fixed, or gone; the file must drop them. */
  stale: BaselineEntry[];
  passed: boolean;
}

/** This run's non-passes against the baseline's section for this audit. */
export function compareBaseline(baseline: Baseline, section: BaselineSection, run: readonly BaselineEntry[]): BaselineOutcome {
  const listed = baseline[section];
  const known = new Set(listed.map(key));
  const seen = new Set(run.map(key));
  const expected = run.filter((e) => known.has(key(e)));
  const added = run.filter((e) => !known.has(key(e)));
  const stale = listed.filter((e) => !seen.has(key(e)));
  return { expected, added, stale, passed: added.length === 0 && stale.length === 0 };
}

/** The outcome in lines, as the terminal prints it under the table. */
export function describeBaseline(file: string, o: BaselineOutcome): string[] {
  const name = (e: BaselineEntry) => `${e.id}${e.requirement ? ` (${e.requirement})` : ''}`;
  const lines = [`baseline ${file}: ${o.expected.length} expected non-pass(es) seen, ${o.added.length} new, ${o.stale.length} stale`];
  for (const e of o.added) lines.push(`  new    ${name(e)}: not in the baseline (a regression, or add it with a reason)`);
  for (const e of o.stale) lines.push(`  stale  ${name(e)}: the run no longer shows it (fixed? remove the entry)`);
  lines.push(o.passed ? 'the run matches the baseline (exit 0)' : 'the run does not match the baseline (exit 1)');
  return lines;
}

/** The non-passes an audit of one server or one client prints, as baseline entries: each row the exit
 *  rule fails (its verdict, or a client row's library verdict), with the MUSTs the library broke; and
 *  with `strict`, each spec check that reads `violates` and each scored check the conformance suite fails. */
export function auditNonPasses(a: AuditResult, strict: boolean): BaselineEntry[] {
  const out: BaselineEntry[] = [];
  const blank = { reason: '', upstream: '' };
  for (const s of a.scenarios) {
    const id = a.client !== undefined && s.revision ? `${s.name} ${s.revision}` : s.name;
    const libraryFails = s.library !== undefined && !passes(s.library.verdict);
    if (!passes(s.verdict) || libraryFails) {
      const broken = (s.library?.marks ?? []).filter((m) => m.status === 'broken' && m.level.startsWith('MUST'));
      out.push({ id, requirement: broken.map((m) => m.requirement).join(', '), ...blank });
    }
    if (strict) for (const c of s.spec?.checks ?? []) if (c.verdict === 'violates') out.push({ id, requirement: c.requirement, ...blank });
  }
  // `--conformance`: the suite's failing scored checks are the spec lens's too.
  if (strict && a.conformance) out.push(...suiteNonPasses(a.conformance));
  return out;
}

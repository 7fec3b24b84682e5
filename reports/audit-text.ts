// The audit in the terminal (≤ 120 columns) and as Markdown: one row per scenario, its verdict and
// evidence; then the command line that reproduces each non-pass.
import type { AuditResult, ScenarioResult } from '../sim/audit/server/runner.ts';
import { judged, passes } from '../sim/core/audit-verdict.ts';
import { table } from './table.ts';
import { conformanceMarkdown, conformanceText } from './conformance-text.ts';

/** The spec lens's verdict of a row ('' where no lens ran: a client audit). */
export const specOf = (s: ScenarioResult): string => s.spec?.verdict ?? '';

/** Where the spec-literal client's verdict differs from the forgiving client's: one sentence, else null. */
export function literalDiffers(s: ScenarioResult): string | null {
  if (!s.literal || s.literal.verdict === s.verdict) return null;
  const stuck = s.literal.verdict === 'stuck' || s.literal.verdict === 'silent' ? ': a client that follows the spec gets stuck here' : '';
  return `spec-literal client: ${s.literal.verdict} (${s.literal.why})${stuck}`;
}

function specCounts(a: AuditResult): string {
  if (a.conforms === undefined) return '';
  const by = new Map<string, number>();
  for (const s of a.scenarios) by.set(specOf(s), (by.get(specOf(s)) ?? 0) + 1);
  return `; spec lens: ${[...by].map(([v, n]) => `${n} ${v}`).join(', ')}`;
}

/** A client row's library verdict ('' on a server audit's row): printed beside the agent's verdict. */
export const libraryOf = (s: ScenarioResult): string => s.library?.verdict ?? '';

/** The row passes the exit rule: its verdict, and its library verdict where there is one (audit-verdict.ts). */
export const rowPasses = (s: ScenarioResult): boolean => passes(s.verdict) && (!s.library || passes(s.library.verdict));

/** What the server speaks, as a report's header names it: the exact versions negotiated, each with the
 *  scenario revision it was audited in where that differs (a revision the server refused is never named). */
export function speaksSaid(a: Pick<AuditResult, 'revisions' | 'speaks'>): string {
  return a.revisions
    .map((r, i) => {
      const exact = a.speaks?.[i] ?? r;
      return exact === r ? r : `${exact} (negotiated when asked ${r}: the ${r} scenarios ran in ${exact})`;
    })
    .join(', ');
}

/** A client audit's row names its revision (a client is audited in every revision it speaks). */
const rowName = (s: ScenarioResult, a: AuditResult) => (a.client !== undefined && s.revision ? `${s.name} ${s.revision}` : s.name);

/** What was audited, in one phrase: the server, or `client CMD (against the server)`. */
export function auditSubject(a: AuditResult): string {
  return a.client !== undefined ? `client ${a.client} (against ${a.server})` : a.server;
}

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/** A row judged nothing: neither its verdict (audit-verdict.ts judged()) nor a spec check decided anything. */
const judgedNothing = (s: ScenarioResult) => !judged(s.verdict) && (s.spec === undefined || s.spec.verdict === 'not tested');

function tallyOf(values: readonly string[]): string {
  const by = new Map<string, number>();
  for (const v of values) by.set(v, (by.get(v) ?? 0) + 1);
  return [...by].map(([v, n]) => `${n} ${v}`).join(', ');
}

/** The summary counts what the table shows (on a client audit both columns, each apart), and the
 *  rows that judged nothing. */
function counts(a: AuditResult): string {
  const nothing = ` (${a.scenarios.filter(judgedNothing).length} of ${a.scenarios.length} rows judged nothing)`;
  const agent = tallyOf(a.scenarios.map((s) => s.verdict));
  if (!a.scenarios.some((s) => s.library)) return `${agent}${nothing}`;
  return `agent: ${agent}; library: ${tallyOf(a.scenarios.filter((s) => s.library).map(libraryOf))}${nothing}`;
}

export function renderAuditText(a: AuditResult): string {
  const lens = a.conforms !== undefined;
  const lib = a.scenarios.some((s) => s.library);
  const rows = a.scenarios.map((s) => [
    rowName(s, a),
    s.verdict,
    ...(lib ? [libraryOf(s)] : []),
    ...(lens ? [specOf(s)] : []),
    clip(s.verdict === 'not applicable' ? s.why : `${s.why}; ${s.evidence}`, 120 - 26 - 16 - (lens ? 27 : 0) - (lib ? 16 : 0) - 4),
  ]);
  const lines = [
    `audit of ${auditSubject(a)}; speaks ${speaksSaid(a)}`,
    ...(a.revisionsFound ? [a.revisionsFound] : []),
    ...(a.tools ? [a.tools] : []),
    '',
    table(['scenario', lib ? 'agent' : 'verdict', ...(lib ? ['library'] : []), ...(lens ? ['spec'] : []), 'evidence'], rows).trimEnd(),
    '',
  ];
  const failed = a.scenarios.filter((s) => !rowPasses(s) || specOf(s) === 'violates' || literalDiffers(s));
  for (const s of failed) {
    lines.push(
      `${rowName(s, a)}: ${lib ? `agent ${s.verdict}, library ${libraryOf(s)}` : s.verdict}${lens ? `, spec ${specOf(s)}` : ''}`,
      `  plan       ${s.plan}`,
      `  evidence   ${s.evidence}`,
    );
    if (s.library) lines.push(`  library    ${s.library.behaviour}: ${s.library.why}`, `             ${s.library.evidence}`);
    for (const c of s.spec?.checks ?? [])
      if (c.verdict === 'violates') lines.push(`  violates   ${c.requirement}: ${c.quote}`, `             ${c.evidence}`);
    const differs = literalDiffers(s);
    if (differs) lines.push(`  literal    ${differs}`, `             ${s.literal!.evidence}`);
    lines.push(`  reproduce  ${s.reproduce.audit}`, ...(s.reproduce.check ? [`  search     ${s.reproduce.check}`] : []));
  }
  if (failed.length) lines.push('');
  for (const p of a.pending) lines.push(`pending (not run): ${p.name}: ${p.why}`);
  if (a.conformance) lines.push(...conformanceText(a.conformance));
  const exit = a.passed
    ? 'no printed verdict fails the audit (exit 0)'
    : `a printed verdict does not pass${lib ? ' (agent or library)' : ''} (exit 1)`;
  const strict = a.conforms === false ? '; the spec lens finds a violation (--strict: exit 1)' : '';
  lines.push(`${counts(a)}${specCounts(a)}: ${exit}${strict}`, '');
  return lines.join('\n');
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function renderAuditMarkdown(a: AuditResult): string {
  const lib = a.scenarios.some((s) => s.library);
  const lines = [
    `# Audit of ${auditSubject(a)}`,
    '',
    `Speaks ${speaksSaid(a)}. ${counts(a)}${specCounts(a)}.${a.tools ? ` ${cell(a.tools)}.` : ''}`,
    '',
    `| scenario | ${lib ? 'agent | library' : 'verdict'} | spec | why | evidence |`,
    `|---|---|${lib ? '---|' : ''}---|---|---|`,
    ...a.scenarios.map(
      (s) =>
        `| \`${rowName(s, a)}\` | ${s.verdict}${lib ? ` | ${libraryOf(s)}` : ''} | ${specOf(s)} | ${cell(s.why)}${literalDiffers(s) ? ` — ${cell(literalDiffers(s)!)}` : ''}${s.library ? ` — library: ${cell(s.library.behaviour)}: ${cell(s.library.why)}` : ''} | ${cell(s.evidence)} |`,
    ),
    '',
    ...(a.conformance ? conformanceMarkdown(a.conformance) : []),
    '## Scenarios',
    '',
  ];
  for (const s of a.scenarios) {
    lines.push(
      `### ${rowName(s, a)}: ${s.library ? `agent ${s.verdict}, library ${s.library.verdict}` : s.verdict}${s.spec ? `, spec ${s.spec.verdict}` : ''}`,
      '',
      s.asks,
      '',
      `- plan: ${s.plan}`,
      `- judged by: ${s.judgedBy.join(', ')}`,
      ...(s.tool ? [`- tool: ${s.tool}`] : []),
      ...(s.library
        ? [`- library alone: **${s.library.verdict}** (${s.library.behaviour}): ${cell(s.library.why)} — ${cell(s.library.evidence)}`]
        : []),
    );
    for (const c of s.spec?.checks ?? [])
      lines.push(`- spec **${c.verdict}** [\`${c.requirement}\`](${c.url}) — ${c.quote} — ${c.evidence}`);
    if (s.spec && s.spec.checks.length === 0) lines.push('- spec: not tested (no requirement is observed by this scenario on this server)');
    if (s.literal)
      lines.push(
        `- spec-literal client: ${s.literal.verdict} (${s.literal.why}) — ${s.literal.evidence}${literalDiffers(s) ? ' — **differs**' : ''}`,
      );
    lines.push(`- reproduce: \`${s.reproduce.audit}\``);
    lines.push(...(s.reproduce.check ? [`- search: \`${s.reproduce.check}\``] : []), '');
  }
  if (a.pending.length) lines.push('## Pending (not run)', '', ...a.pending.map((p) => `- \`${p.name}\`: ${p.why}`), '');
  return lines.join('\n');
}

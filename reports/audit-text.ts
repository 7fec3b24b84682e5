// The audit in the terminal (≤ 120 columns) and as Markdown: one row per scenario, its verdict and
// evidence; then the command line that reproduces each non-pass.
import type { AuditResult, ScenarioResult } from '../sim/audit/server/runner.ts';
import { judged, passes } from '../sim/core/audit-verdict.ts';
import { table } from './table.ts';

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

/** What was audited, in one phrase: the server, or `client CMD (against the server)`. */
export function auditSubject(a: AuditResult): string {
  return a.client !== undefined ? `client ${a.client} (against ${a.server})` : a.server;
}

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/** A row judged nothing: neither its verdict (audit-verdict.ts judged()) nor a spec check decided anything. */
const judgedNothing = (s: ScenarioResult) => !judged(s.verdict) && (s.spec === undefined || s.spec.verdict === 'not tested');

function counts(a: AuditResult): string {
  const by = new Map<string, number>();
  for (const s of a.scenarios) by.set(s.verdict, (by.get(s.verdict) ?? 0) + 1);
  const nothing = a.scenarios.filter(judgedNothing).length;
  return `${[...by].map(([v, n]) => `${n} ${v}`).join(', ')} (${nothing} of ${a.scenarios.length} rows judged nothing)`;
}

export function renderAuditText(a: AuditResult): string {
  const lens = a.conforms !== undefined;
  const rows = a.scenarios.map((s) => [
    s.name,
    s.verdict,
    ...(lens ? [specOf(s)] : []),
    clip(s.verdict === 'not applicable' ? s.why : `${s.why}; ${s.evidence}`, 120 - 26 - 16 - (lens ? 27 : 0) - 4),
  ]);
  const lines = [
    `audit of ${auditSubject(a)} (speaks ${a.revisions.join(', ')})`,
    ...(a.revisionsFound ? [a.revisionsFound] : []),
    ...(a.tools ? [a.tools] : []),
    '',
    table(['scenario', 'verdict', ...(lens ? ['spec'] : []), 'evidence'], rows).trimEnd(),
    '',
  ];
  const failed = a.scenarios.filter((s) => !passes(s.verdict) || specOf(s) === 'violates' || literalDiffers(s));
  for (const s of failed) {
    lines.push(`${s.name}: ${s.verdict}${lens ? `, spec ${specOf(s)}` : ''}`, `  plan       ${s.plan}`, `  evidence   ${s.evidence}`);
    for (const c of s.spec?.checks ?? [])
      if (c.verdict === 'violates') lines.push(`  violates   ${c.requirement}: ${c.quote}`, `             ${c.evidence}`);
    const differs = literalDiffers(s);
    if (differs) lines.push(`  literal    ${differs}`, `             ${s.literal!.evidence}`);
    lines.push(`  reproduce  ${s.reproduce.audit}`, ...(s.reproduce.check ? [`  search     ${s.reproduce.check}`] : []));
  }
  if (failed.length) lines.push('');
  for (const p of a.pending) lines.push(`pending (not run): ${p.name}: ${p.why}`);
  const exit = a.passed ? 'every scenario passes (exit 0)' : 'a scenario does not pass (exit 1)';
  const strict = a.conforms === false ? '; the spec lens finds a violation (--strict: exit 1)' : '';
  lines.push(`${counts(a)}${specCounts(a)}: ${exit}${strict}`, '');
  return lines.join('\n');
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function renderAuditMarkdown(a: AuditResult): string {
  const lines = [
    `# Audit of ${auditSubject(a)}`,
    '',
    `Speaks ${a.revisions.join(', ')}. ${counts(a)}${specCounts(a)}.${a.tools ? ` ${cell(a.tools)}.` : ''}`,
    '',
    '| scenario | verdict | spec | why | evidence |',
    '|---|---|---|---|---|',
    ...a.scenarios.map(
      (s) =>
        `| \`${s.name}\` | ${s.verdict} | ${specOf(s)} | ${cell(s.why)}${literalDiffers(s) ? ` — ${cell(literalDiffers(s)!)}` : ''} | ${cell(s.evidence)} |`,
    ),
    '',
    '## Scenarios',
    '',
  ];
  for (const s of a.scenarios) {
    lines.push(
      `### ${s.name}: ${s.verdict}${s.spec ? `, spec ${s.spec.verdict}` : ''}`,
      '',
      s.asks,
      '',
      `- plan: ${s.plan}`,
      `- judged by: ${s.judgedBy.join(', ')}`,
      ...(s.tool ? [`- tool: ${s.tool}`] : []),
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

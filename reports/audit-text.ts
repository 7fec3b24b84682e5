// The audit in the terminal (≤ 120 columns) and as Markdown: one row per scenario, its verdict and
// evidence; then the command line that reproduces each non-pass.
import type { AuditResult } from '../sim/audit/runner.ts';
import { passes } from '../sim/core/audit-verdict.ts';
import { table } from './table.ts';

/** What was audited, in one phrase: the server, or `client CMD (against the server)`. */
export function auditSubject(a: AuditResult): string {
  return a.client !== undefined ? `client ${a.client} (against ${a.server})` : a.server;
}

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

function counts(a: AuditResult): string {
  const by = new Map<string, number>();
  for (const s of a.scenarios) by.set(s.verdict, (by.get(s.verdict) ?? 0) + 1);
  return [...by].map(([v, n]) => `${n} ${v}`).join(', ');
}

export function renderAuditText(a: AuditResult): string {
  const rows = a.scenarios.map((s) => [
    s.name,
    s.verdict,
    clip(s.verdict === 'not applicable' ? s.why : `${s.why}; ${s.evidence}`, 120 - 26 - 16 - 4),
  ]);
  const lines = [
    `audit of ${auditSubject(a)} (speaks ${a.revisions.join(', ')})`,
    ...(a.tools ? [a.tools] : []),
    '',
    table(['scenario', 'verdict', 'evidence'], rows).trimEnd(),
    '',
  ];
  const failed = a.scenarios.filter((s) => !passes(s.verdict));
  for (const s of failed)
    lines.push(
      `${s.name}: ${s.verdict}`,
      `  plan       ${s.plan}`,
      `  evidence   ${s.evidence}`,
      `  reproduce  ${s.reproduce.audit}`,
      `  search     ${s.reproduce.check}`,
    );
  if (failed.length) lines.push('');
  for (const p of a.pending) lines.push(`pending (not run): ${p.name}: ${p.why}`);
  lines.push(`${counts(a)}: ${a.passed ? 'every scenario passes (exit 0)' : 'a scenario does not pass (exit 1)'}`, '');
  return lines.join('\n');
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function renderAuditMarkdown(a: AuditResult): string {
  const lines = [
    `# Audit of ${auditSubject(a)}`,
    '',
    `Speaks ${a.revisions.join(', ')}. ${counts(a)}.${a.tools ? ` ${cell(a.tools)}.` : ''}`,
    '',
    '| scenario | verdict | why | evidence |',
    '|---|---|---|---|',
    ...a.scenarios.map((s) => `| \`${s.name}\` | ${s.verdict} | ${cell(s.why)} | ${cell(s.evidence)} |`),
    '',
    '## Scenarios',
    '',
  ];
  for (const s of a.scenarios) {
    lines.push(
      `### ${s.name}: ${s.verdict}`,
      '',
      s.asks,
      '',
      `- plan: ${s.plan}`,
      `- judged by: ${s.judgedBy.join(', ')}`,
      ...(s.tool ? [`- tool: ${s.tool}`] : []),
      `- reproduce: \`${s.reproduce.audit}\``,
    );
    lines.push(...(s.reproduce.check ? [`- search: \`${s.reproduce.check}\``] : []), '');
  }
  if (a.pending.length) lines.push('## Pending (not run)', '', ...a.pending.map((p) => `- \`${p.name}\`: ${p.why}`), '');
  return lines.join('\n');
}

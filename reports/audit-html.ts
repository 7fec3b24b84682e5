// The audit as one self-contained HTML page (no script, no external asset): the verdict table,
// then each scenario with what it asks, its plan and the command lines that reproduce it.
import type { AuditResult } from '../sim/audit/runner.ts';
import { auditSubject } from './audit-text.ts';
import { esc } from './compare-html.ts';

const COLOR: Record<string, string> = {
  pass: '#1a7f37',
  loud: '#9a6700',
  stuck: '#bc4c00',
  silent: '#cf222e',
  'not applicable': '#57606a',
};

export function renderAuditHtml(a: AuditResult): string {
  const rows = a.scenarios
    .map(
      (s) =>
        `<tr id="${esc(s.name)}"><td><code>${esc(s.name)}</code></td><td style="color:${COLOR[s.verdict]}"><b>${esc(s.verdict)}</b></td><td>${esc(s.why)}</td><td>${esc(s.evidence)}</td></tr>`,
    )
    .join('\n');
  const details = a.scenarios
    .map(
      (s) =>
        `<section><h3>${esc(s.name)}: ${esc(s.verdict)}</h3><p>${esc(s.asks)}</p><ul><li>plan: ${esc(s.plan)}</li><li>judged by: ${esc(s.judgedBy.join(', '))}</li>` +
        `<li>reproduce: <code>${esc(s.reproduce.audit)}</code></li><li>search: <code>${esc(s.reproduce.check)}</code></li></ul></section>`,
    )
    .join('\n');
  const pending = a.pending.length
    ? `<h2>Pending (not run)</h2><ul>${a.pending.map((p) => `<li><code>${esc(p.name)}</code>: ${esc(p.why)}</li>`).join('')}</ul>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mcp-faultsim audit: ${esc(auditSubject(a))}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:4px 8px;vertical-align:top;text-align:left}code{font-size:13px}</style>
</head><body>
<h1>Audit of ${esc(auditSubject(a))}</h1>
<p>Speaks ${esc(a.revisions.join(', '))}. ${a.passed ? 'Every scenario passes.' : 'A scenario does not pass.'}</p>
<table><thead><tr><th>scenario</th><th>verdict</th><th>why</th><th>evidence</th></tr></thead><tbody>
${rows}
</tbody></table>
<h2>Scenarios</h2>
${details}
${pending}
</body></html>
`;
}

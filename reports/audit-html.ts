// The audit as one self-contained HTML page (no script, no external asset): the verdict table with
// the spec lens beside it, then each scenario with what it asks, its plan, each requirement judged
// (linked to the spec's section), the spec-literal client's outcome and the command lines.
import type { AuditResult } from '../sim/audit/server/runner.ts';
import { auditSubject, libraryOf, literalDiffers, specOf, speaksSaid } from './audit-text.ts';
import type { ScenarioResult } from '../sim/audit/server/runner.ts';
import { esc } from './compare-html.ts';
import { conformanceHtml } from './conformance-text.ts';

const COLOR: Record<string, string> = {
  pass: '#1a7f37',
  loud: '#9a6700',
  stuck: '#bc4c00',
  'never settled': '#cf222e',
  'broken without faults': '#cf222e',
  'protocol hazard': '#57606a',
  silent: '#cf222e',
  'not applicable': '#57606a',
  conforms: '#1a7f37',
  violates: '#cf222e',
  'optional, not implemented': '#57606a',
  unspecified: '#57606a',
  'not tested': '#57606a',
};

function specDetails(s: ScenarioResult): string {
  const checks = (s.spec?.checks ?? []).map(
    (c) =>
      `<li><b style="color:${COLOR[c.verdict]}">${esc(c.verdict)}</b> <a href="${esc(c.url)}"><code>${esc(c.requirement)}</code></a>: <q>${esc(c.quote)}</q><br>${esc(c.evidence)}</li>`,
  );
  if (s.spec && checks.length === 0) checks.push('<li>spec: not tested (no requirement is observed by this scenario on this server)</li>');
  const literal = s.literal
    ? `<li>spec-literal client: <b>${esc(s.literal.verdict)}</b> (${esc(s.literal.why)})${literalDiffers(s) ? ' <b>differs: a client that follows the spec meets this</b>' : ''}<br>${esc(s.literal.evidence)}</li>`
    : '';
  return checks.join('') + literal;
}

/** A client row's library verdict cell, beside the agent's (none on a server audit). */
const libraryCell = (s: ScenarioResult, lib: boolean) =>
  lib
    ? `<td style="color:${COLOR[libraryOf(s)] ?? 'inherit'}"><b>${esc(libraryOf(s))}</b>${s.library ? `<br><small>${esc(s.library.behaviour)}</small>` : ''}</td>`
    : '';

export function renderAuditHtml(a: AuditResult): string {
  const lib = a.scenarios.some((s) => s.library);
  const rows = a.scenarios
    .map(
      (s) =>
        `<tr id="${esc(s.revision && lib ? `${s.name}-${s.revision}` : s.name)}"><td><code>${esc(s.name)}</code>${lib && s.revision ? ` ${esc(s.revision)}` : ''}</td><td style="color:${COLOR[s.verdict]}"><b>${esc(s.verdict)}</b></td>${libraryCell(s, lib)}<td style="color:${COLOR[specOf(s)] ?? 'inherit'}">${esc(specOf(s))}</td><td>${esc(s.why)}${literalDiffers(s) ? `<br><i>${esc(literalDiffers(s)!)}</i>` : ''}</td><td>${esc(s.evidence)}</td></tr>`,
    )
    .join('\n');
  const details = a.scenarios
    .map(
      (s) =>
        `<section><h3>${esc(s.name)}: ${esc(s.verdict)}${s.spec ? `, spec ${esc(s.spec.verdict)}` : ''}</h3><p>${esc(s.asks)}</p><ul><li>plan: ${esc(s.plan)}</li><li>judged by: ${esc(s.judgedBy.join(', '))}</li>` +
        specDetails(s) +
        (s.library
          ? `<li>library alone: <b>${esc(s.library.verdict)}</b> (${esc(s.library.behaviour)}): ${esc(s.library.why)}<br><small>${esc(s.library.evidence)}</small></li>`
          : '') +
        `<li>reproduce: <code>${esc(s.reproduce.audit)}</code></li>${s.reproduce.check ? `<li>search: <code>${esc(s.reproduce.check)}</code></li>` : ''}</ul></section>`,
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
<p>Speaks ${esc(speaksSaid(a))}. ${a.passed ? 'Every scenario passes.' : `A printed verdict does not pass${lib ? ' (agent or library)' : ''}.`}${a.conforms === undefined ? '' : a.conforms ? ' The spec lens finds no violation.' : ' The spec lens finds a violation.'}</p>
<table><thead><tr><th>scenario</th><th>${lib ? 'agent' : 'verdict'}</th>${lib ? '<th>library</th>' : ''}<th>spec</th><th>why</th><th>evidence</th></tr></thead><tbody>
${rows}
</tbody></table>
${a.conformance ? conformanceHtml(a.conformance) : ''}
<h2>Scenarios</h2>
${details}
${pending}
</body></html>
`;
}

// `audit --conformance` in the terminal and in Markdown: the requirements both the audit and the
// official conformance suite judge, side by side with whether they agree; then what the suite judged
// alone (its failures and known false passes one by one, its passes and untestable checks counted);
// then one tally. Rendered under the audit's own table, in the same report (terminal, audit.md, audit.html).
import type { ConformanceLens, MergedCheck } from '../sim/audit/conformance/lens.ts';
import type { Revision } from '../models/policies.ts';
import { esc } from './compare-html.ts';
import { table } from './table.ts';

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);
const name = (c: MergedCheck) => (c.scenario === c.check ? c.scenario : `${c.scenario}/${c.check}`);
const unscored = (c: { scored: boolean }) => (c.scored ? '' : ' (not scored)');

/** The tally line: the suite's scored checks by verdict, the unscored ones, the disagreements. */
export function conformanceTally(l: ConformanceLens): string {
  const c = l.counts;
  return `conformance suite: ${c.pass} pass, ${c.fail} fail, ${c.falsePass} known false pass, ${c.notTestable} not testable, ${c.warning} warning (scored checks); ${c.unscored} not scored; the tools disagree on ${c.disagree} requirement(s)`;
}

/** What the suite judged alone, by verdict: failures and false passes one per line, the rest counted. */
function suiteOnlyLines(l: ConformanceLens, width: number): string[] {
  const lines: string[] = [];
  const only = l.suiteOnly;
  const by = (v: MergedCheck['verdict']) => only.filter((c) => c.verdict === v);
  const at = (c: MergedCheck & { revision: Revision }) => `${c.revision} ${name(c)}${unscored(c)}`;
  for (const c of by('fail')) lines.push(clip(`  fail        ${at(c)}: ${c.why}`, width));
  for (const c of by('false pass')) lines.push(clip(`  false pass  ${at(c)}: ${c.why}`, width));
  for (const c of by('warning')) lines.push(clip(`  warning     ${at(c)}: ${c.why}`, width));
  const listed = (v: MergedCheck['verdict'], label: string) => {
    const cs = by(v);
    if (cs.length)
      lines.push(clip(`  ${label.padEnd(11)} ${cs.length} check(s): ${[...new Set(cs.map((c) => c.scenario))].join(', ')}`, width));
  };
  listed('not testable', 'not testable');
  listed('pass', 'pass');
  return lines;
}

/** The section of the terminal report (≤ `width` columns). */
export function conformanceText(l: ConformanceLens, width = 120): string[] {
  const lines = [`${l.suite}, merged with the spec lens by requirement:`];
  for (const r of l.runs) lines.push(`  ${r.command}: ${r.scenarios} scenario(s)`);
  const rows = l.requirements.map((r) => [
    r.slug,
    r.revision,
    r.level,
    r.audit,
    `${r.suite}${r.scored ? '' : ' (not scored)'}`,
    r.agreement,
  ]);
  lines.push('', table(['requirement', 'revision', 'level', 'audit', 'suite', 'tools'], rows).trimEnd());
  for (const r of l.requirements) {
    if (!r.note && r.suite !== 'fail') continue;
    lines.push(clip(`${r.slug} ${r.revision}: ${r.note || `the suite ${r.suite}s`}`, width));
    for (const c of r.suiteChecks)
      if (c.verdict !== 'pass') lines.push(clip(`  suite ${c.verdict.padEnd(12)} ${name(c)}${unscored(c)}: ${c.why}`, width));
    if (r.auditRows.length) lines.push(clip(`  audit ${r.audit.padEnd(12)} ${r.auditRows.join(', ')}`, width));
  }
  lines.push('', 'what the suite judged and the audit does not:', ...suiteOnlyLines(l, width), '', conformanceTally(l));
  if (!l.conforms) lines.push('the suite fails a scored check: a spec violation (--strict: exit 1)');
  return [...lines, ''];
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The section of audit.md. */
export function conformanceMarkdown(l: ConformanceLens): string[] {
  const lines = [
    '## The official conformance suite',
    '',
    `${l.suite}, ${l.runs.map((r) => `\`${r.command}\` (${r.scenarios} scenarios)`).join(', ')}. ${cell(conformanceTally(l))}.`,
    '',
    '| requirement | revision | level | audit | suite | tools | note |',
    '|---|---|---|---|---|---|---|',
    ...l.requirements.map(
      (r) =>
        `| \`${r.slug}\` | ${r.revision} | ${r.level} | ${r.audit} | ${r.suite}${unscored(r)} | ${r.agreement} | ${cell(
          [r.note, ...r.suiteChecks.filter((c) => c.verdict !== 'pass').map((c) => `${name(c)}: ${c.why}`)].filter(Boolean).join('; '),
        )} |`,
    ),
    '',
    '### What the suite judged and the audit does not',
    '',
    ...l.suiteOnly
      .filter((c) => c.verdict !== 'pass')
      .map((c) => `- **${c.verdict}** ${c.revision} \`${name(c)}\`${unscored(c)}: ${cell(c.why)}`),
    `- **pass**: ${l.suiteOnly.filter((c) => c.verdict === 'pass').length} check(s)`,
    '',
  ];
  return lines;
}

/** The section of audit.html. */
export function conformanceHtml(l: ConformanceLens): string {
  const rows = l.requirements
    .map(
      (r) =>
        `<tr><td><code>${esc(r.slug)}</code></td><td>${esc(r.revision)}</td><td>${esc(r.level)}</td><td>${esc(r.audit)}</td><td>${esc(`${r.suite}${unscored(r)}`)}</td><td>${r.agreement === 'disagree' ? `<b>${esc(r.agreement)}</b>` : esc(r.agreement)}</td><td>${esc(
          [r.note, ...r.suiteChecks.filter((c) => c.verdict !== 'pass').map((c) => `${name(c)}: ${c.why}`)].filter(Boolean).join('; '),
        )}</td></tr>`,
    )
    .join('\n');
  const only = l.suiteOnly
    .filter((c) => c.verdict !== 'pass')
    .map((c) => `<li><b>${esc(c.verdict)}</b> ${esc(c.revision)} <code>${esc(name(c))}</code>${esc(unscored(c))}: ${esc(c.why)}</li>`)
    .join('');
  return `<h2>The official conformance suite</h2>
<p>${esc(l.suite)}: ${esc(l.runs.map((r) => `${r.command} (${r.scenarios} scenarios)`).join(', '))}. ${esc(conformanceTally(l))}.</p>
<table><thead><tr><th>requirement</th><th>revision</th><th>level</th><th>audit</th><th>suite</th><th>tools</th><th>note</th></tr></thead><tbody>
${rows}
</tbody></table>
<h3>What the suite judged and the audit does not</h3>
<ul>${only}<li><b>pass</b>: ${l.suiteOnly.filter((c) => c.verdict === 'pass').length} check(s)</li></ul>`;
}

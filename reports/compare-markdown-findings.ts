// One finding as Markdown: its facts (violated properties, cause, mitigations, the shrunk plan, how to
// replay it), a Mermaid sequence diagram and the history around the failure; and the findings not
// shown in detail, one line each.
import type { ReportedFinding } from '../sim/compare/compare.ts';
import type { Finding } from '../sim/compare/findings.ts';
import { describeFault } from '../sim/core/plan.ts';
import { describeWorkload } from '../sim/core/workload.ts';
import { minimality } from './compare-analysis.ts';
import { FARED_MARK, mitigationLine, type NumberedGroup } from './compare-causes.ts';
import { combinationLine, counterexamplePath, outcomeMap } from './compare-common.ts';
import { fence, inlineCode, mdText } from './escape.ts';
import { describeEntry, stepLine } from './history-text.ts';
import { sequenceDiagram } from './mermaid.ts';

export function finding(f: ReportedFinding, n: number, anchor: string, group: NumberedGroup | undefined): string[] {
  const outcomes = outcomeMap(f);
  const title = f.properties.map((p) => p.property).join(', ');
  const lines = [`### <a id="${anchor}"></a>${n}. ${mdText(f.cellName)}: ${mdText(title)}`, ''];
  lines.push(`- **combination** ${inlineCode(combinationLine(f.combination))}`);
  for (const p of f.properties) {
    const certificate = minimality(p);
    lines.push(
      `- **${mdText(p.property)}** ${f.kind === 'policy-error' ? '' : 'violated: '}${mdText(p.why)}${certificate ? ` — *${mdText(certificate)}*` : ''}`,
    );
  }
  if (f.cause)
    lines.push(
      `- **cause** ${group ? `${group.label} (${group.cells.length} cells): ` : ''}${mdText(f.cause.how)}${f.cause.step !== null ? ` — step ${f.cause.step + 1}, marked ◀ below` : ''}`,
    );
  const m = mitigationLine(f);
  if (m) {
    const holds = m.holds.map((x) => `${inlineCode(x.change)} (${FARED_MARK[x.fared]})`).join(', ') || 'no single change';
    lines.push(
      `- **mitigations** holds with ${holds}${m.fails.length ? `; still silent (or failing) with ${m.fails.map((x) => inlineCode(x)).join(', ')}` : ''}${m.wouldBreak.length ? `; would break the fault-free run: ${m.wouldBreak.map((x) => inlineCode(x)).join(', ')}` : ''}`,
    );
    if (m.pairs)
      lines.push(
        `- **two changes** ${mdText(m.pairs.text)}${m.pairs.found.length ? `: ${m.pairs.found.map((x) => `${inlineCode(x)} (${FARED_MARK.clean})`).join(', ')}` : ''}`,
      );
  }
  lines.push(
    `- **shrunk fault plan** ${f.plan.length === 0 ? '(no faults)' : f.plan.map((x, i) => `${i + 1}. ${inlineCode(describeFault(x))}`).join(' ')}`,
  );
  lines.push(
    `- **workload** ${inlineCode(describeWorkload(f.workload) || '(none)')}${f.schedule.length ? ` · schedule ${inlineCode(f.schedule.join(','))}` : ''}`,
  );
  if (f.outcomes.length) lines.push(`- **outcomes** ${f.outcomes.map((o) => `call ${o.callId}: ${o.outcome}`).join(', ')}`);
  const how =
    f.runsToFailure === null
      ? 'not shrunk (each attempt would wait for the time limit again)'
      : `found after ${f.runsToFailure} runs, shrunk in ${f.shrinks} steps`;
  lines.push(`- **${how}** (fast-check seed ${f.seed}, path ${inlineCode(f.path || '-')})`);
  lines.push(
    `- **replay** ${inlineCode(`npx mcp-faultsim replay ${counterexamplePath(f)}`)} (the path is relative to this report's directory: [${counterexamplePath(f)}](${counterexamplePath(f)}))`,
  );
  const marked = f.cause?.step ?? null;
  lines.push('', fence('mermaid', sequenceDiagram(f.history, outcomes, marked)), '');
  const { from, to } = aroundFailure(f);
  const steps = f.history
    .map((e, i) => ({ e, i }))
    .slice(from, to)
    .filter(({ e, i }) => i === marked || (e.kind !== 'state' && e.kind !== 'deliver'))
    .map(({ e, i }) => `${stepLine(describeEntry(e, outcomes))}${i === marked ? '   ◀ where the session went wrong' : ''}`);
  if (from > 0) steps.unshift(`… ${from} earlier steps (the counterexample file has them all)`);
  if (to < f.history.length) steps.push(`… ${f.history.length - to} later steps`);
  lines.push(
    `<details><summary>History around the failure, step by step (steps ${from + 1}–${to} of ${f.history.length}; state changes and deliveries left out)</summary>`,
    '',
  );
  lines.push(fence('text', steps.join('\n')), '', '</details>', '');
  return lines;
}

/** From a few steps before the first fault that acted to the end of the last call that was not ok. */
export function aroundFailure(f: ReportedFinding): { from: number; to: number } {
  const h = f.history;
  const applied = h.findIndex((e) => e.kind === 'fault' && e.applied);
  const firstFault = f.cause?.step != null && (applied < 0 || f.cause.step < applied) ? f.cause.step : applied;
  const bad = new Set(f.outcomes.filter((o) => o.outcome !== 'ok').map((o) => o.callId));
  let last = -1;
  h.forEach((e, i) => {
    if (e.kind === 'end' && bad.has(e.callId)) last = i;
  });
  return { from: Math.max(0, firstFault < 0 ? 0 : firstFault - 4), to: last < 0 ? h.length : last + 1 };
}

/** Findings listed one line each below the detailed ones; past this many, compare.json and compare.html have them. */
const LISTED = 300;

export function listed(findings: Finding[], from: number): string[] {
  if (findings.length === 0) return [];
  const more =
    findings.length > LISTED ? ` The first ${LISTED} are listed; compare.html and compare.json hold all ${findings.length}.` : '';
  const lines = [
    `### ${findings.length} more findings`,
    '',
    `Not shown in detail here (see \`--details\`); each has its counterexample file with the full history.${more}`,
    '',
    '| # | cell | violated | shrunk fault plan | counterexample |',
    '|---:|---|---|---|---|',
  ];
  findings.slice(0, LISTED).forEach((f, i) => {
    const plan = f.plan.map(describeFault).join(', then ') || '(no faults)';
    lines.push(
      `| ${from + i + 1} | ${mdText(f.cellName)} | ${mdText(f.properties.map((p) => p.property).join(', '))} | ${mdText(plan)} | [${f.id}](${counterexamplePath(f)}) |`,
    );
  });
  return [...lines, ''];
}

// The comparison as Markdown that renders on GitHub: the matrix first (per cell and property, the
// verdict, and the silent / loud / ok call counts), what each cell reached (vacuity), then one
// section per finding: its shrunk fault plan, a Mermaid sequence diagram, the history step by step,
// and the command that replays it.
import { comparisonCoverage, exhaustiveRows, minimality } from './compare-analysis.ts';
import type { Comparison, ReportedFinding } from '../compare/compare.ts';
import { FARED_MARK, groupOfFinding, groupsOf, mitigationLine, whatChangesWhat, type NumberedGroup } from './compare-causes.ts';
import { CELL_CLASSES } from '../core/cell-class.ts';
import type { Finding } from '../compare/findings.ts';
import { describeFault } from '../core/plan.ts';
import { describeWorkload } from '../core/workload.ts';
import {
  callCounts,
  CLASS_MARK,
  CLASS_MEANING,
  combinationLine,
  counterexamplePath,
  detailed,
  extraFields,
  findingNumbers,
  findingsByCell,
  outcomeMap,
  VERDICT_MARK,
  verdictCell,
  sides,
  skippedFaults,
} from './compare-common.ts';
import { describeEntry, stepLine } from './history-text.ts';
import { formatJson } from './json-format.ts';
import { sequenceDiagram } from './mermaid.ts';
import { migrationMarkdown } from './migration-view.ts';
import { mdText } from './escape.ts';

export { mdText } from './escape.ts';
import { plural } from './words.ts';

/** A fenced block that no backtick run inside the text can close early. */
export function fence(lang: string, text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

function inlineCode(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${f}${pad}${text.replace(/[\r\n]+/g, ' ')}${pad}${f}`;
}

function header(c: Comparison): string[] {
  const cut = [
    ...Object.entries(c.matrix.cut.server).map(([k, v]) => `server.${k}=${v.join('|')}`),
    ...Object.entries(c.matrix.cut.client).map(([k, v]) => `client.${k}=${v.join('|')}`),
  ];
  const lines = ['# mcp-faultsim: policy comparison', ''];
  if (c.interrupted) lines.push(`> **Interrupted:** ${c.cells.length} of ${c.matrix.size} cells finished; the rest were not run.`, '');
  lines.push(
    `${c.tool.name} ${c.tool.version} · matrix **${c.matrix.kind}** (${c.matrix.size} cells${cut.length ? `, cut to ${mdText(cut.join(', '))}` : ''}) · seed ${c.seed} · ${c.runs} random runs per cell` +
      (c.policies.length ? ` · policies ${c.policies.map((p) => inlineCode(p)).join(', ')}` : ''),
    '',
  );
  const counts = CELL_CLASSES.map((k) => [k, c.cells.filter((x) => x.class === k).length] as const).filter(([, n]) => n > 0);
  lines.push("| cells | how the agent's calls fared |", '|---:|---|');
  for (const [k, n] of counts) lines.push(`| ${n} | ${CLASS_MARK[k]}: ${CLASS_MEANING[k]} |`);
  lines.push('');
  return lines;
}

function causes(c: Comparison, groups: readonly NumberedGroup[], anchors: Map<string, string>): string[] {
  if (groups.length === 0) return [];
  const link = (n: number, id: string) => (anchors.has(id) ? `[${n}](#${anchors.get(id)})` : `${n}`);
  const lines = [
    '## Causes',
    '',
    'Findings grouped by cause: the same minimal fault plan, failing by the same mechanism (read from the history: the step that turned the call silent, or loud). The groups touching the most cells come first: a cause shared by many cells is usually the parser or transport, not the policy the cell varies.',
    '',
    '| group | cells | findings | silent | minimal plan | mechanism |',
    '|---|---|---|:---:|---|---|',
  ];
  for (const g of groups) {
    const findings = g.findings.map((id, i) => link(g.findingNumbers[i]!, id)).join(' ');
    lines.push(
      `| ${g.label} | ${g.cells.length}: ${g.cellNumbers.join(', ')} | ${findings} | ${g.silent ? '🔇' : '🔊'} | ${mdText(g.plan)} | ${mdText(g.how)} |`,
    );
  }
  return [...lines, ''];
}

function changes(c: Comparison, groups: readonly NumberedGroup[]): string[] {
  const t = whatChangesWhat(c, groups);
  if (t.rows.length === 0) return [];
  const lines = [
    '## What changes what',
    '',
    `For each silent finding, every combination one knob value away (a guard added or removed counts as one) replayed the finding's own input and ran a random search of its own: a change *holds* when the replay did not go silent and no searched run went silent by the finding's mechanism (a run silent in another way is another cause, with its own group). Per change and silent cause group: how many of the group's findings it makes hold, and the worst way it holds (✅ clean, 🔊 loud and recovers, 🔊✗ loud and never recovers); — it holds none of them. Groups: ${t.groups.map((g) => `**${g.label}** ${mdText(g.plan)}`).join('; ')}.`,
    '',
    `| change | holds for | ${t.groups.map((g) => g.label).join(' | ')} |`,
    `|---|---:|${t.groups.map(() => ':---:').join('|')}|`,
  ];
  const mark = (fared: string | null) =>
    fared === 'clean' ? '✅' : fared === 'loud, recovers' ? '🔊' : fared === 'loud, never recovers' ? '🔊✗' : '';
  for (const r of t.rows) {
    const cells = t.groups.map((g) => {
      const x = r.cells.get(g.label);
      return x && x.holds > 0 ? `${mark(x.fared)} ${x.holds}/${x.of}` : x ? '—' : '';
    });
    lines.push(`| ${inlineCode(r.change)} | ${r.total} | ${cells.join(' | ')} |`);
  }
  return [...lines, ''];
}

function matrix(c: Comparison, byCell: Map<string, Finding[]>, anchors: Map<string, string>): string[] {
  const props = c.properties;
  const number = findingNumbers(c);
  const lines = [
    '## Matrix',
    '',
    `Per cell: how its calls fared over ${c.runs} random runs (ok / loud errors / silent), and each property's verdict: ${VERDICT_MARK.holds} holds, ${VERDICT_MARK.violated} violated (in how many runs), ${VERDICT_MARK.vacuous} vacuous (its situation was never reached), 💥 a policy error.`,
    '',
    `| # | cell | class | calls ok / loud / silent | ${props.join(' | ')} | findings |`,
    `|---:|---|---|---|${props.map(() => ':---:').join('|')}|---|`,
  ];
  for (const cell of c.cells) {
    const n = callCounts(cell);
    const verdicts = props.map((p) => {
      const v = verdictCell(cell, p);
      return v.kind === 'violated' ? `${v.mark} ${v.violations}` : v.mark;
    });
    const links = (byCell.get(cell.id) ?? [])
      .map((f) => (anchors.has(f.id) ? `[${number.get(f.id)}](#${anchors.get(f.id)})` : `${number.get(f.id)}`))
      .join(' ');
    lines.push(
      `| ${cell.index + 1} | ${mdText(cell.name)} | ${CLASS_MARK[cell.class]} | ${n.ok} / ${n.loud} / ${n.silent} | ${verdicts.join(' | ')} | ${links} |`,
    );
  }
  return [...lines, ''];
}

function cells(c: Comparison): string[] {
  const lines = [
    '## Cells: combinations and what they reached',
    '',
    'Vacuity guards: how often a reconnect, a re-initialize and a transport fallback happened, and how often each fault fired (its point was reached) and acted (it changed something), over all runs of the cell.',
    '',
    '| # | server | client | fault alphabet | reconnects | re-inits | fallbacks | faults fired (acted) | vacuous |',
    '|---:|---|---|---|---:|---:|---:|---|---|',
  ];
  for (const cell of c.cells) {
    const s = cell.stats;
    const acted =
      Object.entries(s.faultsFired)
        .map(([f, n]) => `${f} ×${n} (${s.faultsApplied[f] ?? 0})`)
        .join(', ') || 'none';
    const vacuous =
      cell.results
        .filter((r) => r.verdict === 'vacuous')
        .map((r) => r.property)
        .join(', ') || '—';
    const { server, client } = sides(cell);
    const skipped = skippedFaults(cell);
    lines.push(
      `| ${cell.index + 1} | ${mdText(server)} | ${mdText(client)} | ${mdText(cell.alphabet === 'all faults' ? 'all faults' : cell.faults.join(', '))} | ${s.reconnects} | ${s.reinitializes} | ${s.fallbacks} | ${mdText(acted)}${skipped ? ` · skipped: ${mdText(skipped)}` : ''} | ${mdText(vacuous)} |`,
    );
  }
  return [...lines, ''];
}

function exhaustive(c: Comparison): string[] {
  const rows = exhaustiveRows(c);
  if (rows.length === 0) return [];
  const lines = [
    '## Exhaustive search',
    '',
    `Beside the random runs, every plan of up to ${plural(rows[0]!.depth, 'fault')} at every point, on every sequential workload of one to three calls, explored with equal worlds merged: a property that holds here holds for all of them, not only for the plans drawn.`,
    '',
    '| # | cell | distinct states | plans | result |',
    '|---:|---|---:|---:|---|',
  ];
  for (const r of rows) {
    const results = r.results.map((x) => `**${mdText(x.property)}** ${mdText(x.text)}`).join('<br>');
    lines.push(
      `| ${r.index + 1} | ${mdText(r.cell)}${r.complete ? '' : ' (incomplete)'} | ${r.states.toLocaleString('en-US')} | ${r.plans.toLocaleString('en-US')} | ${results} |`,
    );
  }
  return [...lines, ''];
}

function coverage(c: Comparison): string[] {
  const machines = comparisonCoverage(c);
  if (machines.length === 0) return [];
  const lines = [
    '## Machine coverage',
    '',
    "The states and transitions of the models' statecharts that some run of some cell reached, against all of them in the definitions (`xstate/graph`). What no run reached is a behaviour no verdict above says anything about.",
    '',
  ];
  for (const m of machines) {
    lines.push(
      `- **${m.machine}**: ${m.states.reached} of ${m.states.total} states, ${m.transitions.reached} of ${m.transitions.total} transitions`,
    );
    for (const s of m.states.unreached) lines.push(`  - state never entered: ${inlineCode(s)}`);
    for (const t of m.transitions.unreached) lines.push(`  - transition never taken: ${inlineCode(t)}`);
  }
  return [...lines, ''];
}

function finding(f: ReportedFinding, n: number, anchor: string, group: NumberedGroup | undefined): string[] {
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
      `- **mitigations** holds with ${holds}${m.fails.length ? `; still silent (or failing) with ${m.fails.map((x) => inlineCode(x)).join(', ')}` : ''}`,
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

function listed(findings: Finding[], from: number): string[] {
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

function extras(c: Comparison): string[] {
  const rows = c.cells.flatMap((cell) => extraFields(cell).map(([k, v]) => ({ cell, k, v })));
  if (rows.length === 0) return [];
  const lines = ['## Other per-cell data', ''];
  for (const { cell, k, v } of rows)
    lines.push(
      `<details><summary>${cell.index + 1}. ${mdText(cell.name)}: ${mdText(k)}</summary>`,
      '',
      fence('json', formatJson(v)),
      '',
      '</details>',
      '',
    );
  return lines;
}

export function renderMarkdown(c: Comparison, details: number): string {
  const { detailed: shown, listed: rest } = detailed(c, details);
  const anchors = new Map(shown.map((f) => [f.id, `finding-${f.id}`]));
  const byCell = findingsByCell(c);
  const groups = groupsOf(c);
  const groupOf = groupOfFinding(groups);
  const lines = [
    ...header(c),
    ...migrationMarkdown(c),
    ...causes(c, groups, anchors),
    ...changes(c, groups),
    ...matrix(c, byCell, anchors),
    ...cells(c),
    ...exhaustive(c),
    ...coverage(c),
  ];
  lines.push('## Findings', '');
  if (c.findings.length === 0) lines.push('No property was violated and no policy failed.', '');
  shown.forEach((f, i) => lines.push(...finding(f, i + 1, anchors.get(f.id)!, groupOf.get(f.id))));
  lines.push(...listed(rest, shown.length), ...extras(c));
  return `${lines.join('\n').trimEnd()}\n`;
}

// The comparison as Markdown that renders on GitHub: the matrix first (per cell and property, the
// verdict, and the silent / loud / ok call counts), what each cell reached (vacuity), then one
// section per finding: its shrunk fault plan, a Mermaid sequence diagram, the history step by step,
// and the command that replays it (compare-markdown-findings.ts).
import { comparisonCoverage, exhaustiveRows } from './compare-analysis.ts';
import type { Comparison } from '../sim/compare/compare.ts';
import { groupFixes, groupOfFinding, groupsOf, leftOut, whatChangesWhat, type NumberedGroup } from './compare-causes.ts';
import { describeWorkload } from '../sim/core/workload.ts';
import { CELL_CLASSES } from '../sim/core/cell-class.ts';
import type { Finding } from '../sim/compare/findings.ts';
import {
  callCountsText,
  CLASS_MARK,
  CLASS_MEANING,
  detailed,
  extraFields,
  findingNumbers,
  findingsByCell,
  VERDICT_MARK,
  verdictCell,
  sideKnobs,
  sides,
  skippedFaults,
} from './compare-common.ts';
import { finding, listed } from './compare-markdown-findings.ts';
import { recommendationMarkdown } from './compare-recommendation-md.ts';
import { formatJson } from './json-format.ts';
import { migrationMarkdown } from './migration-view.ts';
import { fence, inlineCode, mdText } from './escape.ts';

export { fence, mdText } from './escape.ts';
import { plural } from './words.ts';

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
  return lines;
}

function classCounts(c: Comparison): string[] {
  const lines: string[] = [];
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
    `For each silent finding, every combination one knob value away (a guard added or removed counts as one) replayed the finding's own input and ran a random search of its own: a change *holds* when the replay did not go silent and no searched run went silent by the finding's mechanism (a run silent in another way is another cause, with its own group). A change whose combination is broken without faults (a call fails with no fault at all) is never a mitigation: it is left out and named below. Where no single change holds clean, pairs of changes were tried (a bounded search, the same every run); a pair that holds clean is a row \`a + b\`. Per change and silent cause group: how many of the group's findings it makes hold, and the worst way it holds (✅ clean, 🔊 loud and recovers, 🔊✗ loud and never recovers); — it holds none of them. Groups: ${t.groups.map((g) => `**${g.label}** ${mdText(g.plan)}`).join('; ')}.`,
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
  lines.push(
    '',
    "Per group, the fixes ranked: clean first, then loud and recovers, then loud and never recovers; within a rank, the one that holds for the most of the group's findings.",
    '',
  );
  for (const { group: g, fixes, considered } of groupFixes(c, t)) {
    const ranked =
      fixes.map((x, i) => `${i + 1}. ${inlineCode(x.change)} ${mark(x.fared)} ${x.holds}/${x.of}`).join(' · ') || 'no change holds';
    const { pairs, wouldBreak } = considered;
    const notes = [
      pairs.findings ? `pairs: ${pairs.tried} tried, ${pairs.searched} searched, where no single change holds clean` : '',
      wouldBreak.length ? `would break the fault-free run: ${wouldBreak.map((w) => inlineCode(w.change)).join(', ')}` : '',
    ].filter(Boolean);
    lines.push(`- **${g.label}**: ${ranked}${notes.length ? ` — ${notes.join(' — ')}` : ''}`);
  }
  const out = leftOut(c);
  if (out.length) {
    lines.push('', 'Left out because the change breaks the fault-free run:', '');
    for (const w of out) lines.push(`- ${inlineCode(w.change)}: ${mdText(w.reason)}`);
  }
  return [...lines, ''];
}

function broken(c: Comparison): string[] {
  const cells = c.cells.filter((x) => x.brokenWithoutFaults);
  if (cells.length === 0) return [];
  const lines = [
    '## Broken without faults',
    '',
    `${CLASS_MARK['broken without faults']}: ${plural(cells.length, 'cell')} whose fault-free run already fails a call. No fault was tried in them (every fault run would fail for the same reason), so they are no failure mode of either side, and the mitigation finder never proposes a change that leads to one.`,
    '',
    '| # | cell | why | the fault-free run that fails |',
    '|---:|---|---|---|',
  ];
  for (const x of cells) {
    const b = x.brokenWithoutFaults!;
    const calls = b.failed.map((f) => `call ${f.callId}: ${f.end === 'error' ? `error (${f.reason})` : `no result (${f.end})`}`).join(', ');
    lines.push(
      `| ${x.index + 1} | ${mdText(x.name)} | ${mdText(b.reason)} | ${inlineCode(describeWorkload(b.workload))}: ${mdText(calls)} |`,
    );
  }
  return [...lines, ''];
}

function matrix(c: Comparison, byCell: Map<string, Finding[]>, anchors: Map<string, string>): string[] {
  const props = c.properties;
  const number = findingNumbers(c);
  const lines = [
    '## Matrix',
    '',
    `Per cell: how its calls fared over ${c.runs} random runs (ok / loud errors / silent, then +Nd: the runs in which a tool ran twice for one call, and +Nc: the runs in which a session's capabilities changed without a reset — silent failures no call's outcome shows; a capability change is silent unless a guard refused it, and then its calls count loud), and each property's verdict: ${VERDICT_MARK.holds} holds, ${VERDICT_MARK.violated} violated (in how many runs), ${VERDICT_MARK.vacuous} vacuous (its situation was never reached), 💥 a policy error.`,
    '',
    `| # | cell | class | calls ok / loud / silent | ${props.join(' | ')} | findings |`,
    `|---:|---|---|---|${props.map(() => ':---:').join('|')}|---|`,
  ];
  for (const cell of c.cells) {
    const verdicts = props.map((p) => {
      const v = verdictCell(cell, p);
      return v.kind === 'violated' ? `${v.mark} ${v.violations}` : v.mark;
    });
    const links = (byCell.get(cell.id) ?? [])
      .map((f) => (anchors.has(f.id) ? `[${number.get(f.id)}](#${anchors.get(f.id)})` : `${number.get(f.id)}`))
      .join(' ');
    lines.push(
      `| ${cell.index + 1} | ${mdText(cell.name)} | ${CLASS_MARK[cell.class]} | ${callCountsText(cell, ' / ')} | ${verdicts.join(' | ')} | ${links} |`,
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
    `| # | server (${sideKnobs(c.cells, 'server').join(' · ')}) | client (${sideKnobs(c.cells, 'client').join(' · ')}) | fault alphabet | reconnects | re-inits | fallbacks | faults fired (acted) | vacuous |`,
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
    ...recommendationMarkdown(c.recommendation, anchors),
    ...classCounts(c),
    ...migrationMarkdown(c),
    ...causes(c, groups, anchors),
    ...changes(c, groups),
    ...matrix(c, byCell, anchors),
    ...broken(c),
    ...cells(c),
    ...exhaustive(c),
    ...coverage(c),
  ];
  lines.push('## Findings', '');
  if (c.findings.length === 0) lines.push('No property was violated and no policy failed.', '');
  for (const [i, f] of shown.entries()) lines.push(...finding(f, i + 1, anchors.get(f.id)!, groupOf.get(f.id)));
  lines.push(...listed(rest, shown.length), ...extras(c));
  return `${lines.join('\n').trimEnd()}\n`;
}

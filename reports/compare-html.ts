// The comparison as one self-contained HTML file: no network, no CDN (a Content-Security-Policy
// forbids any fetch). It answers first: the recommendation (compare-html-recommendation.ts), a heat map of the matrix (cells × fault family, coloured by
// class, filtered by the class chips), then the causes and what changes what, the statecharts of
// both machines drawn from their definitions (a finding's path highlightable on them), and the
// matrix, sortable by any column and filterable by knob, fault set, class and text, the filters kept
// in the page's address. Each finding opens to a timeline in Jepsen's manner (one column per actor,
// each call a bar from invoke to end, coloured by outcome) and its history step by step. Every string
// from a history or a policy is escaped; the script only reads attributes and toggles visibility.
// The parts: compare-html-heatmap.ts, compare-html-matrix.ts, compare-html-findings.ts,
// statechart-svg.ts.
import { migrationHtml } from './migration-view.ts';
import { esc } from './escape.ts';

export { esc } from './escape.ts';
import { comparisonCoverage, exhaustiveRows } from './compare-analysis.ts';
import type { Comparison } from '../sim/compare/compare.ts';
import { describeWorkload } from '../sim/core/workload.ts';
import { groupFixes, groupOfFinding, groupsOf, leftOut, whatChangesWhat, type NumberedGroup } from './compare-causes.ts';
import { CELL_CLASSES } from '../sim/core/cell-class.ts';
import { CLASS_MEANING, detailed, extraFields, findingsByCell } from './compare-common.ts';
import { finding, listed } from './compare-html-findings.ts';
import { HTML_SCRIPT, HTML_STYLE } from './compare-html-assets.ts';
import { filters, matrix } from './compare-html-matrix.ts';
import { classSlug, heatmap } from './compare-html-heatmap.ts';
import { recommendationHtml } from './compare-html-recommendation.ts';
import { statecharts } from './compare-html-statecharts.ts';
import { formatJson } from './json-format.ts';
import { plural } from './words.ts';

function causes(groups: readonly NumberedGroup[], shown: Set<string>): string {
  if (groups.length === 0) return '';
  const rows = groups
    .map((g) => {
      const fs = g.findings
        .map((id, i) =>
          shown.has(id) ? `<a class="flink" href="#finding-${esc(id)}">${g.findingNumbers[i]}</a>` : `<span>${g.findingNumbers[i]}</span>`,
        )
        .join(' ');
      return `<tr><td>${esc(g.label)}</td><td data-sort="${g.cells.length}">${g.cells.length}: ${esc(g.cellNumbers.join(', '))}</td><td class="fl">${fs}</td><td class="${g.silent ? 'silent-empty' : 'error'}">${g.silent ? 'silent' : 'loud'}</td><td><code>${esc(g.plan)}</code></td><td>${esc(g.how)}</td></tr>`;
    })
    .join('');
  return `<section id="causes"><h2>Causes</h2><p>Findings grouped by cause: the same minimal fault plan, failing by the same mechanism (read from the history: the step that turned the call silent, or loud). The groups touching the most cells come first.</p><table class="listed"><thead><tr><th>group</th><th>cells</th><th>findings</th><th>how</th><th>minimal plan</th><th>mechanism</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

// The class words themselves, one word per class on the whole page (compare-common.ts CLASS_MEANING).
const FARED_SHORT: Record<string, string> = {
  clean: '✓ clean',
  'loud, recovers': 'loud, recovers',
  'loud, never recovers': 'loud, never recovers',
};

function changes(c: Comparison, groups: readonly NumberedGroup[]): string {
  const t = whatChangesWhat(c, groups);
  if (t.rows.length === 0) return '';
  const head = `<tr><th>change</th><th>holds for</th>${t.groups.map((g) => `<th title="${esc(`${g.plan} → ${g.how}`)}">${esc(g.label)}</th>`).join('')}</tr>`;
  const rows = t.rows
    .map((r) => {
      const cells = t.groups.map((g) => {
        const x = r.cells.get(g.label);
        if (!x) return '<td></td>';
        if (x.holds === 0) return '<td class="g">—</td>';
        return `<td class="m ${esc((x.fared ?? '').replace(/[^a-z]+/g, '-'))}">${esc(FARED_SHORT[x.fared ?? ''] ?? '')} ${x.holds}/${x.of}</td>`;
      });
      return `<tr><td><code>${esc(r.change)}</code></td><td>${r.total}</td>${cells.join('')}</tr>`;
    })
    .join('');
  const legend = t.groups.map((g) => `<b>${esc(g.label)}</b> <code>${esc(g.plan)}</code>`).join('; ');
  const ranked = groupFixes(c, t)
    .map(({ group: g, fixes, considered: { pairs, wouldBreak } }) => {
      const list = fixes
        .map((x) => `<li><code>${esc(x.change)}</code> ${esc(FARED_SHORT[x.fared] ?? x.fared)} ${x.holds}/${x.of}</li>`)
        .join('');
      const notes = [
        pairs.findings ? `pairs: ${pairs.tried} tried, ${pairs.searched} searched, where no single change holds clean` : '',
        wouldBreak.length ? `would break the fault-free run: ${wouldBreak.map((w) => `<code>${esc(w.change)}</code>`).join(', ')}` : '',
      ].filter(Boolean);
      return `<li><b>${esc(g.label)}</b>${list ? `<ol>${list}</ol>` : ' no change holds'}${notes.length ? `<p>${notes.map((n) => (n.startsWith('pairs') ? esc(n) : n)).join(' — ')}</p>` : ''}</li>`;
    })
    .join('');
  const out = leftOut(c)
    .map((w) => `<li><code>${esc(w.change)}</code>: ${esc(w.reason)}</li>`)
    .join('');
  return `<section id="changes"><h2>What changes what</h2><p>For each silent finding, every combination one knob value away replayed the finding's input and ran a random search: a change holds when the replay did not go silent and no searched run went silent by the finding's mechanism. A change whose combination is broken without faults is never a mitigation: it is left out and named below. Where no single change holds clean, pairs of changes were tried (bounded, the same every run); a pair that holds clean is a row <code>a + b</code>. Per change and silent cause group: how many of the group's findings it makes hold, and the worst way (clean; loud, recovers; loud, never recovers). Groups: ${legend}.</p><table class="listed"><thead>${head}</thead><tbody>${rows}</tbody></table><h3>Per group, ranked</h3><p>Clean first, then loud, recovers, then loud, never recovers; within a rank, the one that holds for the most of the group's findings.</p><ul class="ranked">${ranked}</ul>${out ? `<h3>Left out: the change breaks the fault-free run</h3><ul>${out}</ul>` : ''}</section>`;
}

function exhaustive(c: Comparison): string {
  const rows = exhaustiveRows(c);
  if (rows.length === 0) return '';
  const body = rows
    .map((r) => {
      const results = r.results
        .map((x) => `<div class="${x.verdict === 'violated' ? 'silent' : 'ok'}"><b>${esc(x.property)}</b> ${esc(x.text)}</div>`)
        .join('');
      return `<tr><td>${r.index + 1}</td><td>${esc(r.cell)}${r.complete ? '' : ' (incomplete)'}</td><td>${esc(r.states.toLocaleString('en-US'))}</td><td>${esc(r.plans.toLocaleString('en-US'))}</td><td>${results}</td></tr>`;
    })
    .join('');
  return `<section id="exhaustive"><h2>Exhaustive search</h2><p>Every plan of up to ${esc(plural(rows[0]!.depth, 'fault'))} at every point, on every sequential workload of one to three calls, explored with equal worlds merged: a property that holds here holds for all of them.</p><table class="listed"><thead><tr><th>#</th><th>cell</th><th>distinct states</th><th>plans</th><th>result</th></tr></thead><tbody>${body}</tbody></table></section>`;
}

function coverage(c: Comparison): string {
  const machines = comparisonCoverage(c);
  if (machines.length === 0) return '';
  const items = machines
    .map((m) => {
      const never = [
        ...m.states.unreached.map((s) => `state never entered: ${s}`),
        ...m.transitions.unreached.map((t) => `transition never taken: ${t}`),
      ];
      return `<li><b>${esc(m.machine)}</b>: ${m.states.reached} of ${m.states.total} states, ${m.transitions.reached} of ${m.transitions.total} transitions${never.length ? `<ul>${never.map((x) => `<li><code>${esc(x)}</code></li>`).join('')}</ul>` : ''}</li>`;
    })
    .join('');
  return `<section id="coverage"><h2>Machine coverage</h2><p>The states and transitions of the models' statecharts that some run of some cell reached; what none reached is a behaviour no verdict says anything about.</p><ul>${items}</ul></section>`;
}

function broken(c: Comparison): string {
  const cells = c.cells.filter((x) => x.brokenWithoutFaults);
  if (cells.length === 0) return '';
  const rows = cells
    .map((x) => {
      const b = x.brokenWithoutFaults!;
      const calls = b.failed
        .map((f) => `call ${f.callId}: ${f.end === 'error' ? `error (${f.reason})` : `no result (${f.end})`}`)
        .join(', ');
      return `<tr><td>${x.index + 1}</td><td>${esc(x.name)}</td><td>${esc(b.reason)}</td><td><code>${esc(describeWorkload(b.workload))}</code>: ${esc(calls)}</td></tr>`;
    })
    .join('');
  return `<section id="broken"><h2>Broken without faults</h2><p>${cells.length} ${cells.length === 1 ? 'cell whose' : 'cells whose'} fault-free run already fails a call. No fault was tried in them (every fault run would fail for the same reason), so they are no failure mode of either side, and the mitigation finder never proposes a change that leads to one.</p><table class="listed"><thead><tr><th>#</th><th>cell</th><th>why</th><th>the fault-free run that fails</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function extras(c: Comparison): string {
  const rows = c.cells.flatMap((cell) =>
    extraFields(cell).map(
      ([k, v]) => `<details><summary>${cell.index + 1}. ${esc(cell.name)}: ${esc(k)}</summary><pre>${esc(formatJson(v))}</pre></details>`,
    ),
  );
  return rows.length ? `<section><h2>Other per-cell data</h2>${rows.join('\n')}</section>` : '';
}

export function renderHtml(c: Comparison, details: number): string {
  const { detailed: shown, listed: rest } = detailed(c, details);
  const byCell = findingsByCell(c);
  const groups = groupsOf(c);
  const groupOf = groupOfFinding(groups);
  const shownIds = new Set(shown.map((f) => f.id));
  const summary = CELL_CLASSES.map((k) => [k, c.cells.filter((x) => x.class === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(
      ([k, n]) =>
        `<button type="button" class="chip ${esc(classSlug(k))}" aria-pressed="false" data-class-chip="${esc(k)}" title="${esc(CLASS_MEANING[k])}">${esc(k)}: ${n}</button>`,
    )
    .join(' ');
  const meta = `${esc(c.tool.name)} ${esc(c.tool.version)} · matrix <b>${esc(c.matrix.kind)}</b> (${c.matrix.size} cells) · seed ${esc(c.seed)} · ${esc(c.runs)} random runs per cell${c.policies.length ? ` · policies ${esc(c.policies.join(', '))}` : ''}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>mcp-faultsim: policy comparison</title>
<style>${HTML_STYLE}</style>
</head>
<body>
<header><h1>mcp-faultsim: policy comparison</h1><p class="meta">${meta}</p>${c.interrupted ? `<p class="interrupted" role="alert">Interrupted: ${c.cells.length} of ${c.matrix.size} cells finished; the rest were not run.</p>` : ''}</header>
<main>
${recommendationHtml(c.recommendation, shownIds)}
${heatmap(c, byCell, summary)}
${causes(groups, shownIds)}
${changes(c, groups)}
${migrationHtml(c)}
${statecharts(shown)}
<section id="matrix-section"><h2>Matrix</h2>
${filters(c)}
<div class="matrix-box">${matrix(c, byCell, new Set(shown.map((f) => f.id)))}</div>
<p class="legend">✓ holds · ✗ violated (in how many runs) · vacuous: the property's situation was never reached · error: a designer's policy failed. Calls: ok / loud (an error) / silent (empty or hung with no error). A cell is silent too when a side-effecting tool ran twice for one call (at-most-once), though each call came back ok: +Nd counts those runs beside the silent calls; +Nc the runs in which a session's capabilities changed without a reset (caps-immutable: silent unless a guard refused it, and then its calls count loud). Click a column to sort it, a finding number to open it.</p>
</section>
${broken(c)}
<section id="findings"><h2>Findings</h2>
${c.findings.length === 0 ? '<p>No property was violated and no policy failed.</p>' : ''}
${shown.map((f, i) => finding(f, i + 1, groupOf.get(f.id))).join('\n')}
${listed(rest, shown.length)}
</section>
${exhaustive(c)}
${coverage(c)}
${extras(c)}
</main>
<script>${HTML_SCRIPT}</script>
</body>
</html>
`;
}

// The comparison as one self-contained HTML file: no network, no CDN (a Content-Security-Policy
// forbids any fetch). The matrix is sortable by any column and filterable by knob, alphabet, class
// and text; each finding opens to a timeline in Jepsen's manner (one column per actor, each call a
// bar from invoke to end, coloured by outcome) and its history step by step. Every string from a
// history or a policy is escaped; the script only reads attributes and toggles visibility.
import { notApplicable } from '../models/policies.ts';
import { migrationHtml } from './migration-view.ts';
import { esc } from './escape.ts';

export { esc } from './escape.ts';
import { comparisonCoverage, exhaustiveRows, minimality } from './compare-analysis.ts';
import type { CellResult, Comparison, ReportedFinding } from '../compare/compare.ts';
import { groupOfFinding, groupsOf, mitigationLine, whatChangesWhat, type NumberedGroup } from './compare-causes.ts';
import { CELL_CLASSES } from '../core/cell-class.ts';
import type { Finding } from '../compare/findings.ts';
import { describeFault } from '../core/plan.ts';
import { describeWorkload } from '../core/workload.ts';
import {
  callCounts,
  CLASS_MEANING,
  combinationLine,
  counterexamplePath,
  detailed,
  extraFields,
  findingNumbers,
  findingsByCell,
  outcomeMap,
  verdictCell,
} from './compare-common.ts';
import { describeEntry, stepLine, type Lane } from './history-text.ts';
import { HTML_SCRIPT, HTML_STYLE } from './compare-html-assets.ts';
import { formatJson } from './json-format.ts';
import { plural } from './words.ts';

const KNOBS = [
  ['server', 'reinit'],
  ['server', 'streaming'],
  ['server', 'advertise'],
  ['client', 'reconnect'],
  ['client', 'accept'],
  ['client', 'parser'],
  ['client', 'guards'],
  ['server', 'protocol'],
  ['client', 'protocol'],
  ['client', 'reissue'],
] as const;

function knobValue(cell: CellResult, side: 'server' | 'client', knob: string): string {
  // A wire cell's real side has no knobs: filter it by what it is.
  const wire = (cell as { wire?: Record<'server' | 'client', string> }).wire;
  if (wire && !wire[side].startsWith('model ')) return `${wire[side]} (real code)`;
  const v = (cell.combination[side] as unknown as Record<string, unknown>)[knob];
  const value = Array.isArray(v) ? v.join('+') || 'none' : String(v);
  // A knob that configures nothing in this pair of revisions says so (models/policies.ts notApplicable).
  return notApplicable(cell.combination).includes(`${side}.${knob}`) ? `${value} (not applicable)` : value;
}

/** The filter key of a knob: `protocol` exists on both sides. */
const keyOf = (side: 'server' | 'client', knob: string) => (knob === 'protocol' ? `${side}-protocol` : knob);

function filters(c: Comparison): string {
  const select = (key: string, label: string, values: string[]) =>
    `<label>${esc(label)} <select data-filter="${esc(key)}"><option value="">any</option>${values.map((v) => `<option value="${esc(v)}">${esc(v)}</option>`).join('')}</select></label>`;
  const distinct = (f: (cell: CellResult) => string) => [...new Set(c.cells.map(f))];
  return [
    '<div class="filters">',
    select(
      'class',
      'class',
      CELL_CLASSES.filter((k) => c.cells.some((x) => x.class === k)),
    ),
    select(
      'alphabet',
      'faults',
      distinct((x) => x.alphabet),
    ),
    ...KNOBS.map(([side, knob]) =>
      select(
        keyOf(side, knob),
        `${side}.${knob}`,
        distinct((x) => knobValue(x, side, knob)),
      ),
    ),
    '<label>text <input type="search" data-filter="text" placeholder="cell, property, fault…"></label>',
    `<span class="count" id="shown">${c.cells.length} of ${c.cells.length} cells</span>`,
    '</div>',
  ].join('\n');
}

function matrix(c: Comparison, byCell: Map<string, Finding[]>, shown: Set<string>): string {
  const number = findingNumbers(c);
  const head = [
    '<th data-type="num" aria-sort="ascending">#</th>',
    '<th>cell</th>',
    '<th>class</th>',
    '<th data-type="num" title="calls that returned what the fault-free run returned">ok</th>',
    '<th data-type="num" title="calls that failed with an error">loud</th>',
    '<th data-type="num" title="calls that came back empty or hung, with no error">silent</th>',
    '<th data-type="num" title="reconnects over all runs (vacuity guard)" class="p">re-<wbr>conn.</th>',
    '<th data-type="num" title="re-initializes over all runs (vacuity guard)" class="p">re-<wbr>inits</th>',
    '<th data-type="num" title="transport fallbacks over all runs (vacuity guard)" class="p">fall-<wbr>backs</th>',
    // Property names break after their hyphens, so that the matrix fits a 1400 px window.
    ...c.properties.map((p) => `<th data-type="num" class="p">${esc(p).replace(/-/g, '-<wbr>')}</th>`),
    '<th data-type="num">findings</th>',
  ].join('');
  const rows = c.cells.map((cell) => {
    const n = callCounts(cell);
    const fs = byCell.get(cell.id) ?? [];
    const attrs = [
      `data-class="${esc(cell.class)}"`,
      `data-alphabet="${esc(cell.alphabet)}"`,
      ...KNOBS.map(([side, knob]) => `data-${keyOf(side, knob)}="${esc(knobValue(cell, side, knob))}"`),
      `data-text="${esc([cell.name, combinationLine(cell.combination), ...fs.flatMap((f) => [...f.properties.map((p) => p.property), ...f.plan.map((x) => x.fault)])].join(' ').toLowerCase())}"`,
    ].join(' ');
    const verdicts = c.properties.map((p) => {
      const v = verdictCell(cell, p);
      const kind = { 'policy-error': 'error', violated: 'violated', vacuous: 'vacuous', holds: 'holds', 'not-run': 'none' }[v.kind];
      const label = { 'policy-error': 'error', violated: `✗ ${v.violations}`, vacuous: 'vacuous', holds: '✓', 'not-run': '' }[v.kind];
      return `<td class="v v${kind}" data-sort="${v.sort}" title="${esc(v.text)}">${esc(label)}</td>`;
    });
    const links = fs
      .map((f) =>
        shown.has(f.id)
          ? `<a class="flink" href="#finding-${esc(f.id)}" title="${esc(f.properties.map((p) => p.property).join(', '))}">${number.get(f.id)}</a>`
          : `<span title="${esc(f.id)}: not shown in detail">${number.get(f.id)}</span>`,
      )
      .join(' ');
    return [
      `<tr ${attrs}>`,
      `<td data-sort="${cell.index}">${cell.index + 1}</td>`,
      `<td title="${esc(
        `${combinationLine(cell.combination)}\nfaults fired (acted): ${
          Object.entries(cell.stats.faultsFired)
            .map(([f, k]) => `${f} ×${k} (${cell.stats.faultsApplied[f] ?? 0})`)
            .join(', ') || 'none'
        }`,
      )}">${esc(cell.name)}</td>`,
      `<td class="c ${esc(cell.class.replace(/[^a-z]+/g, '-'))}" data-sort="${CELL_CLASSES.indexOf(cell.class)}" title="${esc(CLASS_MEANING[cell.class])}">${esc(cell.class)}</td>`,
      `<td data-sort="${n.ok}">${n.ok}</td><td data-sort="${n.loud}">${n.loud}</td><td data-sort="${n.silent}">${n.silent}</td>`,
      ...[cell.stats.reconnects, cell.stats.reinitializes, cell.stats.fallbacks].map((v) => `<td class="g" data-sort="${v}">${v}</td>`),
      ...verdicts,
      `<td data-sort="${fs.length}">${links}</td>`,
      '</tr>',
    ].join('');
  });
  return `<table id="matrix"><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

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

const FARED_SHORT: Record<string, string> = { clean: '✓ clean', 'loud, recovers': 'loud, recovers', 'loud, never recovers': 'loud, stuck' };

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
  return `<section id="changes"><h2>What changes what</h2><p>For each silent finding, every combination one knob value away replayed the finding's input and ran a random search: a change holds when the replay did not go silent and no searched run went silent by the finding's mechanism. Per change and silent cause group: how many of the group's findings it makes hold, and the worst way (clean, loud and recovers, loud and stuck). Groups: ${legend}.</p><table class="listed"><thead>${head}</thead><tbody>${rows}</tbody></table></section>`;
}

const COLUMN: Record<Lane, number> = { agent: 2, client: 3, network: 4, server: 5 };

/** Jepsen's timeline, on the history's order: a row per step, a column per actor, call bars. */
function timeline(f: ReportedFinding): string {
  const outcomes = outcomeMap(f);
  const marked = f.cause?.step ?? null;
  const cells: string[] = [
    '<div class="th" style="grid-column:1">t (ms)</div>',
    '<div class="th" style="grid-column:2">agent</div>',
    '<div class="th" style="grid-column:3">client</div>',
    '<div class="th" style="grid-column:4">load balancer / proxy</div>',
    '<div class="th" style="grid-column:5">server</div>',
  ];
  const invoked = new Map<number, number>();
  let now = 0;
  f.history.forEach((e, i) => {
    const row = i + 2;
    const step = describeEntry(e, outcomes);
    const gap = e.t - now >= 1000 ? `<span class="gap" title="virtual time passed">+${esc(((e.t - now) / 1000).toFixed(1))} s</span>` : '';
    now = e.t;
    cells.push(`<div class="t" style="grid-row:${row}">${gap}${esc(e.t)}</div>`);
    if (e.kind === 'invoke') {
      invoked.set(e.callId, row);
      return;
    }
    if (e.kind === 'end') {
      const from = invoked.get(e.callId) ?? row;
      const outcome = outcomes.get(e.callId);
      cells.push(
        `<div class="call ${esc(step.tone)}" style="grid-row:${from} / ${row + 1};grid-column:2" title="${esc(step.text)}">call ${esc(e.callId)}<br>${esc(outcome ?? e.end)}</div>`,
      );
      cells.push(`<div class="ev ${esc(step.tone)}" style="grid-row:${row};grid-column:3">${esc(step.text)}</div>`);
      return;
    }
    const mark = i === marked ? ' marked' : '';
    const label = i === marked ? '<b class="here">▶ where the session went wrong</b> ' : '';
    cells.push(
      `<div class="ev ${esc(step.tone)}${mark}" style="grid-row:${row};grid-column:${COLUMN[step.lane]}">${label}${esc(step.text)}</div>`,
    );
  });
  return `<div class="timeline">${cells.join('')}</div>`;
}

function finding(f: ReportedFinding, n: number, group: NumberedGroup | undefined): string {
  const outcomes = outcomeMap(f);
  const m = mitigationLine(f);
  const facts = [
    f.cause
      ? `<li><b>cause</b> ${group ? `${esc(group.label)} (${group.cells.length} cells): ` : ''}${esc(f.cause.how)}${f.cause.step !== null ? ` — step ${f.cause.step + 1}, marked in the timeline` : ''}</li>`
      : '',
    m
      ? `<li><b>mitigations</b> holds with ${m.holds.map((x) => `<code>${esc(x.change)}</code> (${esc(x.fared)})`).join(', ') || 'no single change'}${m.fails.length ? `; still silent (or failing) with ${m.fails.map((x) => `<code>${esc(x)}</code>`).join(', ')}` : ''}</li>`
      : '',
    `<li><b>combination</b> <code>${esc(combinationLine(f.combination))}</code></li>`,
    ...f.properties.map((p) => {
      const certificate = minimality(p);
      return `<li><b>${esc(p.property)}</b> ${f.kind === 'policy-error' ? '' : 'violated: '}${esc(p.why)}${certificate ? ` <i class="certificate">(${esc(certificate)})</i>` : ''}</li>`;
    }),
    `<li><b>shrunk fault plan</b> ${f.plan.length === 0 ? '(no faults)' : `<ol class="plan">${f.plan.map((x) => `<li><code>${esc(describeFault(x))}</code></li>`).join('')}</ol>`}</li>`,
    `<li><b>workload</b> <code>${esc(describeWorkload(f.workload) || '(none)')}</code>${f.schedule.length ? ` schedule <code>${esc(f.schedule.join(','))}</code>` : ''}</li>`,
    f.outcomes.length
      ? `<li><b>outcomes</b> ${f.outcomes.map((o) => `call ${esc(o.callId)}: <span class="${esc(o.outcome)}">${esc(o.outcome)}</span>`).join(', ')}</li>`
      : '',
    `<li><b>${f.runsToFailure === null ? 'not shrunk' : `found after ${esc(f.runsToFailure)} runs, shrunk in ${esc(f.shrinks)} steps`}</b> (fast-check seed ${esc(f.seed)}, path <code>${esc(f.path || '-')}</code>)</li>`,
    `<li><b>replay</b> <code>npx mcp-faultsim replay ${esc(counterexamplePath(f))}</code> (relative to this report's directory)</li>`,
  ].join('');
  const steps = f.history.map((e) => esc(stepLine(describeEntry(e, outcomes)))).join('\n');
  return [
    `<details class="finding" id="finding-${esc(f.id)}" data-cell="${esc(f.cell)}">`,
    `<summary>${n}. ${esc(f.cellName)}: ${esc(f.properties.map((p) => p.property).join(', '))}</summary>`,
    `<ul class="facts">${facts}</ul>`,
    `<h4>Timeline</h4>${timeline(f)}`,
    `<details class="steps"><summary>History, step by step (${f.history.length} steps)</summary><pre>${steps}</pre></details>`,
    '</details>',
  ].join('\n');
}

function listed(findings: Finding[], from: number): string {
  if (findings.length === 0) return '';
  const rows = findings.map(
    (f, i) =>
      `<tr><td>${from + i + 1}</td><td>${esc(f.cellName)}</td><td>${esc(f.properties.map((p) => p.property).join(', '))}</td><td>${esc(f.plan.map(describeFault).join(', then ') || '(no faults)')}</td><td><code>${esc(counterexamplePath(f))}</code></td></tr>`,
  );
  return `<h3>${findings.length} more findings, not shown in detail (see --details)</h3><table class="listed"><thead><tr><th>#</th><th>cell</th><th>violated</th><th>shrunk fault plan</th><th>counterexample</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
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
        `<button type="button" class="chip ${esc(k.replace(/[^a-z]+/g, '-'))}" data-class-chip="${esc(k)}" title="${esc(CLASS_MEANING[k])}">${esc(k)}: ${n}</button>`,
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
<header><h1>mcp-faultsim: policy comparison</h1><p class="meta">${meta}</p>${c.interrupted ? `<p class="interrupted" role="alert">Interrupted: ${c.cells.length} of ${c.matrix.size} cells finished; the rest were not run.</p>` : ''}<p class="summary">${summary}</p></header>
<main>
${causes(groups, shownIds)}
${changes(c, groups)}
${migrationHtml(c)}
<section><h2>Matrix</h2>
${filters(c)}
${matrix(c, byCell, new Set(shown.map((f) => f.id)))}
<p class="legend">✓ holds · ✗ violated (in how many runs) · vacuous: the property's situation was never reached · error: a designer's policy failed. Calls: ok / loud (an error) / silent (empty or hung with no error). Click a column to sort it, a finding number to open it.</p>
</section>
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

// One finding as HTML: its facts (cause, mitigations, violated properties, the shrunk plan, how to
// replay it), Jepsen's timeline and its history step by step; and the findings not shown in detail.
import type { ReportedFinding } from '../sim/compare/compare.ts';
import type { Finding } from '../sim/compare/findings.ts';
import { describeFault } from '../sim/core/plan.ts';
import { describeWorkload } from '../sim/core/workload.ts';
import { minimality } from './compare-analysis.ts';
import { mitigationLine, type NumberedGroup } from './compare-causes.ts';
import { combinationLine, counterexamplePath, outcomeMap } from './compare-common.ts';
import { esc } from './escape.ts';
import { describeEntry, stepLine, type Lane } from './history-text.ts';

const COLUMN: Record<Lane, number> = { agent: 2, client: 3, network: 4, server: 5 };

/** How many times the server ran each call's tool (its `call-finished` notes): more than once is a
 *  duplicate execution, which the agent never hears of, so its call is never painted ok. */
export function serverRuns(f: Finding): Map<number, number> {
  const runs = new Map<number, number>();
  for (const e of f.history) {
    const n = e as { kind: string; note?: string; callId?: number };
    if (n.kind === 'server' && n.note === 'call-finished' && typeof n.callId === 'number')
      runs.set(n.callId, (runs.get(n.callId) ?? 0) + 1);
  }
  return runs;
}

/** Jepsen's timeline, on the history's order: a row per step, a column per actor, call bars. */
function timeline(f: ReportedFinding): string {
  const outcomes = outcomeMap(f);
  const runs = serverRuns(f);
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
      const ran = runs.get(e.callId) ?? 0;
      const tone = ran > 1 ? 'duplicate' : step.tone;
      const said = ran > 1 ? `${outcome ?? e.end}, but the tool ran ${ran} times` : (outcome ?? e.end);
      cells.push(
        `<div class="call ${esc(tone)}" style="grid-row:${from} / ${row + 1};grid-column:2" title="${esc(step.text)}">call ${esc(e.callId)}<br>${esc(said)}</div>`,
      );
      cells.push(
        `<div class="ev ${esc(tone)}" style="grid-row:${row};grid-column:3">${esc(ran > 1 ? `${step.text} (the tool ran ${ran} times)` : step.text)}</div>`,
      );
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

export function finding(f: ReportedFinding, n: number, group: NumberedGroup | undefined): string {
  const outcomes = outcomeMap(f);
  const runs = serverRuns(f);
  const m = mitigationLine(f);
  const facts = [
    f.cause
      ? `<li><b>cause</b> ${group ? `${esc(group.label)} (${group.cells.length} cells): ` : ''}${esc(f.cause.how)}${f.cause.step !== null ? ` — step ${f.cause.step + 1}, marked in the timeline` : ''}</li>`
      : '',
    m
      ? `<li><b>mitigations</b> holds with ${m.holds.map((x) => `<code>${esc(x.change)}</code> (${esc(x.fared)})`).join(', ') || 'no single change'}${m.fails.length ? `; still silent (or failing) with ${m.fails.map((x) => `<code>${esc(x)}</code>`).join(', ')}` : ''}${m.wouldBreak.length ? `; would break the fault-free run: ${m.wouldBreak.map((x) => `<code>${esc(x)}</code>`).join(', ')}` : ''}</li>`
      : '',
    m?.pairs
      ? `<li><b>two changes</b> ${esc(m.pairs.text)}${m.pairs.found.length ? `: ${m.pairs.found.map((x) => `<code>${esc(x)}</code> (clean)`).join(', ')}` : ''}</li>`
      : '',
    `<li><b>combination</b> <code>${esc(combinationLine(f.combination))}</code></li>`,
    ...f.properties.map((p) => {
      const certificate = minimality(p);
      return `<li><b>${esc(p.property)}</b> ${f.kind === 'policy-error' ? '' : 'violated: '}${esc(p.why)}${certificate ? ` <i class="certificate">(${esc(certificate)})</i>` : ''}</li>`;
    }),
    `<li><b>shrunk fault plan</b> ${f.plan.length === 0 ? '(no faults)' : `<ol class="plan">${f.plan.map((x) => `<li><code>${esc(describeFault(x))}</code></li>`).join('')}</ol>`}</li>`,
    `<li><b>workload</b> <code>${esc(describeWorkload(f.workload) || '(none)')}</code>${f.schedule.length ? ` schedule <code>${esc(f.schedule.join(','))}</code>` : ''}</li>`,
    f.outcomes.length
      ? `<li><b>outcomes</b> ${f.outcomes
          .map((o) => {
            const ran = runs.get(o.callId) ?? 0;
            return ran > 1
              ? `call ${esc(o.callId)}: <span class="duplicate">${esc(o.outcome)} to the agent, but the tool ran ${ran} times (duplicate execution)</span>`
              : `call ${esc(o.callId)}: <span class="${esc(o.outcome)}">${esc(o.outcome)}</span>`;
          })
          .join(', ')}</li>`
      : '',
    `<li><b>${f.runsToFailure === null ? 'not shrunk' : `found after ${esc(f.runsToFailure)} runs, shrunk in ${esc(f.shrinks)} steps`}</b> (fast-check seed ${esc(f.seed)}, path <code>${esc(f.path || '-')}</code>)</li>`,
    `<li><b>replay</b> <code>npx mcp-faultsim replay ${esc(counterexamplePath(f))}</code> (relative to this report's directory)</li>`,
  ].join('');
  const steps = f.history.map((e) => esc(stepLine(describeEntry(e, outcomes)))).join('\n');
  return [
    `<details class="finding" id="finding-${esc(f.id)}" data-cell="${esc(f.cell)}">`,
    `<summary>${n}. ${esc(f.cellName)}: ${esc(f.properties.map((p) => p.property).join(', '))}</summary>`,
    `<ul class="facts">${facts}</ul>`,
    `<p><a class="pathlink" href="#statecharts" data-finding="${esc(f.id)}">its path on the statecharts</a></p>`,
    `<h4>Timeline</h4>${timeline(f)}`,
    `<details class="steps"><summary>History, step by step (${f.history.length} steps)</summary><pre>${steps}</pre></details>`,
    '</details>',
  ].join('\n');
}

export function listed(findings: Finding[], from: number): string {
  if (findings.length === 0) return '';
  const rows = findings.map(
    (f, i) =>
      `<tr><td>${from + i + 1}</td><td>${esc(f.cellName)}</td><td>${esc(f.properties.map((p) => p.property).join(', '))}</td><td>${esc(f.plan.map(describeFault).join(', then ') || '(no faults)')}</td><td><code>${esc(counterexamplePath(f))}</code></td></tr>`,
  );
  return `<h3>${findings.length} more findings, not shown in detail (see --details)</h3><table class="listed"><thead><tr><th>#</th><th>cell</th><th>violated</th><th>shrunk fault plan</th><th>counterexample</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

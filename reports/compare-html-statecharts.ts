// The page's statecharts section: the client's and the server's machines drawn from their XState
// definitions (statechart-svg.ts), and a choice of finding whose path (the states it entered, the
// transitions it took, read from its history) the page's script highlights on them.
import { clientMachine } from '../models/client.ts';
import { serverMachine } from '../models/server.ts';
import type { Finding } from '../sim/compare/findings.ts';
import { esc } from './escape.ts';
import { chartOf, chartSvg, pathKeys, type Chart } from './statechart-svg.ts';

/** Both machines' charts, read from their definitions. */
export function machineCharts(): readonly Chart[] {
  return [chartOf(clientMachine), chartOf(serverMachine)];
}

export function statecharts(findings: readonly Finding[]): string {
  const charts = machineCharts();
  const options = findings
    .map(
      (f, i) =>
        `<option id="path-${esc(f.id)}" value="${esc(f.id)}" data-path="${esc(pathKeys(charts, f.history).join(' '))}">${i + 1}. ${esc(f.cellName)}: ${esc(f.properties.map((p) => p.property).join(', '))}</option>`,
    )
    .join('');
  const figures = charts
    .map(
      (ch) =>
        `<figure><figcaption><b>${esc(ch.machine)}</b>: ${ch.states.length} states, ${ch.arcs.length} arcs between them (${ch.staying} guarded branches that stay in their state are not drawn)</figcaption><div class="scroll-x">${chartSvg(ch)}</div></figure>`,
    )
    .join('');
  return `<section id="statecharts"><h2>Statecharts</h2><p>The two machines as their definitions in models/ declare them (generated, not drawn by hand): states left to right, a transition an arc above the row when it goes right and below when it goes left. Choose a finding to see the states it entered and the transitions it took.</p>${options ? `<p><label>finding's path <select id="path-pick"><option value="">none</option>${options}</select></label></p>` : ''}${figures}</section>`;
}

// The client's and the server's statecharts as inline SVG, drawn from the XState definitions in
// models/ themselves (`xstate/graph`), never by hand: a change to a machine changes its picture.
// The layout is an arc diagram, the same every run: the states in a row in definition order
// (a compound state a dashed frame around its children), each transition an arc from its source to
// its target, above the row when it goes right and below when it goes left, labelled with its
// events; transitions that stay in their state are counted in the caption, not drawn. Each state
// and arc carries a key (`client:ready`, `client:ready->reconnecting`) by which a finding's path,
// read from its history's state steps (`pathKeys`), is highlighted.
import type { AnyStateMachine } from 'xstate';
import { toDirectedGraph, type DirectedGraphNode } from 'xstate/graph';
import type { HistoryEntry } from '../sim/core/history.ts';
import { esc } from './escape.ts';

export interface Chart {
  machine: string;
  /** Every state by dotted path, in definition order; `leaf` false for a compound state. */
  states: { path: string; leaf: boolean }[];
  /** Distinct source → target pairs (the declaring state and the target state), with their events. */
  arcs: { from: string; to: string; events: string[] }[];
  /** Transitions without a target (they stay in their state): drawn as none, counted. */
  staying: number;
}

/** The chart of a machine's definition (`xstate/graph`'s directed graph of its state nodes). */
export function chartOf(machine: AnyStateMachine): Chart {
  const states: Chart['states'] = [];
  const arcs = new Map<string, Chart['arcs'][number]>();
  let staying = 0;
  const walk = (node: DirectedGraphNode, depth: number) => {
    const path = node.stateNode.path.join('.');
    if (depth > 0) states.push({ path, leaf: node.children.length === 0 });
    const seen = new Set<string>();
    for (const edge of node.edges) {
      const t = edge.transition as unknown as { eventType: string; target?: readonly { path: readonly string[] }[]; guard?: unknown };
      const to = t.target?.[0]?.path.join('.');
      // One entry per XState branch; several guarded branches of one event to one target are one arc.
      const id = `${t.eventType} ${to ?? ''} ${String((t.guard as { type?: string } | undefined)?.type ?? t.guard ?? '')}`;
      if (seen.has(id)) continue;
      seen.add(id);
      if (to === undefined) {
        staying++;
        continue;
      }
      const key = `${path}->${to}`;
      const arc = arcs.get(key) ?? { from: path, to, events: [] };
      if (!arc.events.includes(t.eventType)) arc.events.push(t.eventType);
      arcs.set(key, arc);
    }
    for (const child of node.children) walk(child, depth + 1);
  };
  walk(toDirectedGraph(machine), 0);
  return { machine: machine.id, states, arcs: [...arcs.values()], staying };
}

const within = (state: string, node: string) => state === node || state.startsWith(`${node}.`);

/** The chart keys a history's state steps touch: each state entered (with its ancestors) and, per
 *  step, the arc that took it (the most specific declaring state, then the most specific target). */
export function pathKeys(charts: readonly Chart[], history: readonly HistoryEntry[]): string[] {
  const keys = new Set<string>();
  for (const e of history) {
    if (e.kind !== 'state') continue;
    const s = e as unknown as { machine: string; from: string; to: string };
    const chart = charts.find((c) => c.machine === s.machine);
    if (!chart) continue;
    for (const st of chart.states) if (within(s.from, st.path) || within(s.to, st.path)) keys.add(`${s.machine}:${st.path}`);
    const arc = chart.arcs
      .filter((a) => within(s.from, a.from) && within(s.to, a.to))
      .sort((a, b) => b.from.length - a.from.length || b.to.length - a.to.length)[0];
    if (arc) keys.add(`${s.machine}:${arc.from}->${arc.to}`);
  }
  return [...keys].sort();
}

const W = 118;
const GAP = 26;
const H = 34;

/** The chart as one inline SVG element (no script, no external reference). */
export function chartSvg(chart: Chart): string {
  // Leaves in a row; a compound state spans its children.
  const leaves = chart.states.filter((s) => s.leaf);
  const x = new Map<string, { left: number; right: number }>();
  leaves.forEach((s, i) => {
    x.set(s.path, { left: 10 + i * (W + GAP), right: 10 + i * (W + GAP) + W });
  });
  for (const s of [...chart.states].reverse()) {
    if (s.leaf) continue;
    const kids = leaves.filter((l) => l.path.startsWith(`${s.path}.`)).map((l) => x.get(l.path)!);
    x.set(s.path, { left: Math.min(...kids.map((k) => k.left)) - 6, right: Math.max(...kids.map((k) => k.right)) + 6 });
  }
  const width = 20 + leaves.length * (W + GAP) - GAP;
  const span = (from: string, to: string) => Math.abs(centre(from) - centre(to));
  const centre = (p: string) => (x.get(p)!.left + x.get(p)!.right) / 2;
  const up = Math.max(40, ...chart.arcs.filter((a) => centre(a.to) >= centre(a.from)).map((a) => span(a.from, a.to) * 0.28 + 30));
  const down = Math.max(40, ...chart.arcs.filter((a) => centre(a.to) < centre(a.from)).map((a) => span(a.from, a.to) * 0.28 + 30));
  const mid = up + 24;
  const height = mid + H + 24 + down;
  const boxes = chart.states.map((s) => {
    const { left, right } = x.get(s.path)!;
    const name = s.path.split('.').at(-1)!;
    const key = esc(`${chart.machine}:${s.path}`);
    if (!s.leaf)
      return `<g class="st parent" data-key="${key}"><rect x="${left}" y="${mid - 20}" width="${right - left}" height="${H + 28}" rx="8"/><text x="${left + 6}" y="${mid - 7}">${esc(name)}</text></g>`;
    return `<g class="st" data-key="${key}"><rect x="${left}" y="${mid}" width="${W}" height="${H}" rx="6"/><text x="${(left + right) / 2}" y="${mid + H / 2 + 4}" text-anchor="middle">${esc(name)}</text></g>`;
  });
  const arcs = chart.arcs.map((a, i) => {
    const key = esc(`${chart.machine}:${a.from}->${a.to}`);
    const label = esc(a.events.join(', '));
    const x1 = centre(a.from) + (i % 3) * 6 - 6;
    const x2 = centre(a.to) + (i % 3) * 6 - 6;
    if (a.from === a.to) {
      const y = mid + H;
      return `<g class="tr" data-key="${key}"><path d="M ${x1 - 10} ${y} C ${x1 - 30} ${y + 40}, ${x1 + 30} ${y + 40}, ${x1 + 10} ${y}" marker-end="url(#arrow-${esc(chart.machine)})"/><text x="${x1}" y="${y + 44}" text-anchor="middle">${label}</text></g>`;
    }
    const right = x2 > x1;
    const y = right ? mid : mid + H;
    const bend = (Math.abs(x2 - x1) * 0.28 + 30) * (right ? -1 : 1);
    const ty = y + bend * 0.75 + (right ? -3 : 11);
    return `<g class="tr" data-key="${key}"><path d="M ${x1} ${y} C ${x1} ${y + bend}, ${x2} ${y + bend}, ${x2} ${y}" marker-end="url(#arrow-${esc(chart.machine)})"/><text x="${(x1 + x2) / 2}" y="${ty}" text-anchor="middle">${label}</text></g>`;
  });
  const marker = `<defs><marker id="arrow-${esc(chart.machine)}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#78909c"/></marker></defs>`;
  return `<svg class="chart" id="chart-${esc(chart.machine)}" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(`${chart.machine} statechart`)}">${marker}${arcs.join('')}${boxes.join('')}</svg>`;
}

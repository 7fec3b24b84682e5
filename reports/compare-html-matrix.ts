// The comparison's matrix as HTML: a row per cell (its class, call counts, vacuity guards, each
// property's verdict and links to its findings) and the filters over it (class, alphabet, each knob
// and free text). The page's script sorts and filters by the data attributes written here.
import { KNOB_TABLES, notApplicable } from '../models/policies.ts';
import type { CellResult, Comparison } from '../sim/compare/compare.ts';
import type { Finding } from '../sim/compare/findings.ts';
import { CELL_CLASSES } from '../sim/core/cell-class.ts';
import { apartText, callCounts, CLASS_MEANING, combinationLine, findingNumbers, knobColumns, verdictCell } from './compare-common.ts';
import { esc } from './escape.ts';

function knobValue(cell: CellResult, side: 'server' | 'client', knob: string): string {
  // A wire cell's real side has no knobs: filter it by what it is.
  const wire = (cell as { wire?: Record<'server' | 'client', string> }).wire;
  if (wire && !wire[side].startsWith('model ')) return `${wire[side]} (real code)`;
  const v = (cell.combination[side] as unknown as Record<string, unknown>)[knob];
  const value = Array.isArray(v) ? v.join('+') || 'none' : String(v);
  // A knob that configures nothing in this pair of revisions says so (models/policies.ts notApplicable).
  return notApplicable(cell.combination).includes(`${side}.${knob}`) ? `${value} (not applicable)` : value;
}

/** The filter key of a knob: its name, or `side-name` where both sides have one of that name
 *  (`protocol`) or a policy module declared it (so that it never meets another filter's key). */
function keyOf(side: 'server' | 'client', knob: string): string {
  const other = KNOB_TABLES[side === 'server' ? 'client' : 'server'];
  return Object.hasOwn(KNOB_TABLES[side], knob) && !Object.hasOwn(other, knob) ? knob : `${side}-${knob}`;
}

export function filters(c: Comparison): string {
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
    ...knobColumns(c.cells).map(([side, knob]) =>
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

export function matrix(c: Comparison, byCell: Map<string, Finding[]>, shown: Set<string>): string {
  const number = findingNumbers(c);
  const head = [
    '<th data-type="num" aria-sort="ascending">#</th>',
    '<th>cell</th>',
    '<th>class</th>',
    '<th data-type="num" title="calls that returned what the fault-free run returned">ok</th>',
    '<th data-type="num" title="calls that failed with an error">loud</th>',
    '<th data-type="num" title="calls that came back empty or hung, with no error; +Nd: runs in which a tool ran twice for one call; +Nc: runs in which a session\'s capabilities changed without a reset">silent</th>',
    '<th data-type="num" title="reconnects over all runs (vacuity guard)" class="p">re-<wbr>conn.</th>',
    '<th data-type="num" title="re-initializes over all runs (vacuity guard)" class="p">re-<wbr>inits</th>',
    '<th data-type="num" title="transport fallbacks over all runs (vacuity guard)" class="p">fall-<wbr>backs</th>',
    // Property names break after their hyphens, so that the matrix fits a 1400 px window.
    ...c.properties.map((p) => `<th data-type="num" class="p">${esc(p).replace(/-/g, '-<wbr>')}</th>`),
    '<th data-type="num">findings</th>',
  ].join('');
  const knobs = knobColumns(c.cells);
  const rows = c.cells.map((cell) => {
    const n = callCounts(cell);
    const fs = byCell.get(cell.id) ?? [];
    const attrs = [
      `data-class="${esc(cell.class)}"`,
      `data-alphabet="${esc(cell.alphabet)}"`,
      ...knobs.map(([side, knob]) => `data-${keyOf(side, knob)}="${esc(knobValue(cell, side, knob))}"`),
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
      `<td data-sort="${n.ok}">${n.ok}</td><td data-sort="${n.loud}">${n.loud}</td><td data-sort="${n.silent + n.twice + n.capsChanged}">${n.silent}${esc(apartText(n, ' '))}</td>`,
      ...[cell.stats.reconnects, cell.stats.reinitializes, cell.stats.fallbacks].map((v) => `<td class="g" data-sort="${v}">${v}</td>`),
      ...verdicts,
      `<td data-sort="${fs.length}">${links}</td>`,
      '</tr>',
    ].join('');
  });
  return `<table id="matrix"><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

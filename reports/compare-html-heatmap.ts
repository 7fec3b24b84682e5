// The matrix at a glance: a heat map of cells × fault family, each square coloured by the worst way
// the cell's findings that use a fault of that family (in their shrunk plan) fared, in the cells'
// own class words. Where no finding uses the family, the square says whether the family acted in the
// cell's runs at all, so "no finding" is never read where nothing was tried. The class chips above
// it filter its rows and the matrix's (the page's script, compare-html-assets.ts).
import type { CellClass, CellResult, Comparison } from '../sim/compare/compare.ts';
import type { Finding } from '../sim/compare/findings.ts';
import { faultKind } from '../models/faults.ts';
import { CELL_CLASSES } from '../sim/core/cell-class.ts';
import { CLASS_MEANING } from './compare-common.ts';
import { esc } from './escape.ts';

/** A square of the heat map: a cell class, or what it is when no finding uses the family. */
export type HeatMark = CellClass | 'no finding' | 'never acted' | 'not in this cell';

const HEAT_MEANING: Record<'no finding' | 'never acted' | 'not in this cell', string> = {
  'no finding': 'the family acted in the runs and no finding uses it',
  'never acted': 'the family is in the cell’s faults but never acted on a request',
  'not in this cell': 'the cell’s fault set does not have the family',
};

/** A class word as a CSS class name: `loud, never recovers` → `loud-never-recovers`. */
export const classSlug = (k: string): string => k.replace(/[^a-z]+/g, '-');

/** How one finding fared, in class words: a tool run twice or a wrong answer is silent. */
export function findingClass(f: Finding): CellClass {
  if (f.kind === 'policy-error') return 'policy-error';
  const silent =
    f.properties.some((p) => p.property === 'at-most-once') ||
    f.outcomes.some((o) => o.outcome === 'silent-empty' || o.outcome === 'silent-hang');
  return silent ? 'silent' : 'loud, never recovers';
}

/** The fault families of the run, in the order the cells name them. */
export function familiesOf(c: Comparison): string[] {
  return [...new Set(c.cells.flatMap((cell) => cell.faults.map(faultKind)))];
}

/** One square: the worst class among the cell's findings using the family, else what was tried. */
export function heatMark(cell: CellResult, family: string, findings: readonly Finding[]): HeatMark {
  if (cell.class === 'policy-error' || cell.class === 'broken without faults') return cell.class;
  if (!cell.faults.some((x) => faultKind(x) === family)) return 'not in this cell';
  const using = findings.filter((f) => f.plan.some((x) => faultKind(x.fault) === family)).map(findingClass);
  if (using.length > 0) return CELL_CLASSES.find((k) => using.includes(k))!;
  const acted = Object.entries(cell.stats.faultsApplied).some(([name, n]) => faultKind(name) === family && n > 0);
  return acted ? 'no finding' : 'never acted';
}

const SHORT: Record<HeatMark, string> = {
  'policy-error': 'E',
  'broken without faults': 'B',
  silent: 'S',
  'loud, never recovers': 'L',
  'loud, recovers': 'l',
  clean: '✓',
  'no finding': '·',
  'never acted': '○',
  'not in this cell': '',
};

export function heatmap(c: Comparison, byCell: Map<string, Finding[]>, chips: string): string {
  const families = familiesOf(c);
  if (c.cells.length === 0 || families.length === 0) return '';
  const head = `<tr><th>#</th><th>cell</th><th>class</th>${families.map((f) => `<th class="fam"><span>${esc(f)}</span></th>`).join('')}</tr>`;
  const rows = c.cells
    .map((cell) => {
      const fs = byCell.get(cell.id) ?? [];
      const squares = families
        .map((family) => {
          const mark = heatMark(cell, family, fs);
          return `<td class="h ${esc(classSlug(mark))}" title="${esc(`${family}: ${mark}`)}">${esc(SHORT[mark])}</td>`;
        })
        .join('');
      return `<tr data-class="${esc(cell.class)}"><td>${cell.index + 1}</td><td class="n" title="${esc(cell.name)}">${esc(cell.name)}</td><td class="c ${esc(classSlug(cell.class))}">${esc(cell.class)}</td>${squares}</tr>`;
    })
    .join('\n');
  const seen = new Set<HeatMark>(c.cells.flatMap((cell) => families.map((f) => heatMark(cell, f, byCell.get(cell.id) ?? []))));
  const legend = ([...CELL_CLASSES, 'no finding', 'never acted', 'not in this cell'] as HeatMark[])
    .filter((m) => seen.has(m))
    .map(
      (m) =>
        `<span class="key"><span class="h ${esc(classSlug(m))}">${esc(SHORT[m]) || '&nbsp;'}</span> <b>${esc(m)}</b>: ${esc(m in HEAT_MEANING ? HEAT_MEANING[m as keyof typeof HEAT_MEANING] : CLASS_MEANING[m as CellClass])}</span>`,
    )
    .join(' ');
  return `<section id="heatmap"><h2>The matrix at a glance</h2><p>Each row a cell, each column a fault family; a square is the worst way the cell’s findings whose shrunk plan has a fault of that family fared. A class chip shows only the cells of its class, here and in the matrix below (the page’s address keeps the choice).</p><p class="summary">${chips}</p><div class="scroll-x"><table id="heat"><thead>${head}</thead><tbody>\n${rows}\n</tbody></table></div><p class="legend">${legend}</p></section>`;
}

// The comparison as the terminal shows it: one row per cell with each property's verdict, the
// call counts and the class (fitted to 120 columns), then the cause groups and what changes what
// (last, so that they are what stays on the screen), then where the reports were written.
import type { Comparison } from '../sim/compare/compare.ts';
import { migrationText } from './migration-text.ts';
import { CALL_COUNTS_LEGEND, callCountsText, verdictCell, type VerdictKind } from './compare-common.ts';
import { table, wrap } from './table.ts';
import { rankedFixes } from '../sim/core/fixes-table.ts';
import { findingsById, groupConsidered, groupsOf, whatChangesWhat, type NumberedGroup } from './compare-causes.ts';
import { plural } from './words.ts';
import { recommendationText } from './compare-recommendation-text.ts';
import { propertyByName, type Property } from '../properties/properties.ts';
import { columnOf } from '../properties/fold.ts';

/** Cause groups listed in the terminal; the reports hold every one. */
const SHOWN = 30;

const SHORT: Record<VerdictKind, string> = { holds: 'ok', violated: 'FAIL', vacuous: 'vac', 'policy-error': 'ERR', 'not-run': '-' };

export const SUMMARY_WIDTH = 120;

/** A list item folded to the summary's width: two spaces before the first line, four before the rest. */
function indented(text: string): string[] {
  return wrap(text, SUMMARY_WIDTH - 4).map((l, i) => (i === 0 ? `  ${l}` : `    ${l}`));
}

/** The summary; `registered`: the properties policy modules added, whose column heads it prints too. */
export function renderSummary(c: Comparison, registered: readonly Property[] = []): string {
  // Each property's short column head (properties/properties.ts), so that the table fits 120 columns;
  // a legend names those that differ from the property's name.
  const head = (name: string) => {
    const p = propertyByName(name, registered);
    return p ? columnOf(p) : name;
  };
  const heads = c.properties.map(head);
  const header = ['#', 'cell', ...heads, 'ok/loud/silent', 'class'];
  const rows = c.cells.map((cell) => {
    const verdicts = c.properties.map((p) => SHORT[verdictCell(cell, p).kind]);
    return [String(cell.index + 1), cell.name, ...verdicts, callCountsText(cell), cell.class];
  });
  const lines = [
    `mcp-faultsim compare: ${c.matrix.kind} matrix, ${c.cells.length}${c.cells.length === c.matrix.size ? '' : ` of ${c.matrix.size}`} cells${c.shard ? ` (shard ${c.shard.index}/${c.shard.count})` : ''}, seed ${c.seed}, ${c.runs} runs per cell`,
    '',
    ...recommendationText(c.recommendation, SUMMARY_WIDTH),
    '',
    // A migration matrix's cells (over a thousand lines) are summarised; its full table is in the files.
    ...(c.migration ? migrationText(c, SUMMARY_WIDTH) : [table(header, rows, ['r'], { width: SUMMARY_WIDTH, fold: 1, minimum: 24 })]),
    ...(c.migration
      ? []
      : wrap(
          `columns: ${c.properties
            .filter((p) => head(p) !== p)
            .map((p) => `${head(p)} = ${p}`)
            .join(', ')}; ok = holds, FAIL = violated, vac = vacuous (never reached), ERR = a policy error; ${CALL_COUNTS_LEGEND}`,
          SUMMARY_WIDTH,
        )),
  ];
  const groups = groupsOf(c);
  if (groups.length) {
    lines.push('', 'Causes (findings with the same minimal plan and mechanism), most cells first:');
    for (const g of groups.slice(0, SHOWN))
      lines.push(...indented(`${g.label}  ${plural(g.cells.length, 'cell')}, ${g.silent ? 'SILENT' : 'loud'}: ${g.plan} → ${g.how}`));
    if (groups.length > SHOWN) lines.push(`  … and ${groups.length - SHOWN} more in the reports`);
    const t = whatChangesWhat(c, groups);
    if (t.rows.length) {
      lines.push(
        '',
        ...wrap(
          'What changes what (changes that make the silent findings of a group hold, ranked: clean, then loud and recovers, then loud and never recovers; held/findings, how):',
          SUMMARY_WIDTH,
        ),
      );
      const reasons = new Map<string, string>();
      const byId = findingsById(c);
      for (const g of t.groups) {
        const fixes = rankedFixes(t.rows, g).map((x) => `${x.change} ${x.holds}/${x.of} ${x.fared}`);
        const considered = groupConsidered(c, g, byId);
        lines.push(...indented(`${g.label}: ${fixes.join('; ') || 'no change holds'}${consideredText(considered)}`));
        for (const w of considered.wouldBreak) if (!reasons.has(w.change)) reasons.set(w.change, w.reason);
      }
      // Why each change left out breaks the fault-free run, once (the groups above name them).
      for (const [change, reason] of reasons) lines.push(...indented(`left out, ${change}: ${reason}`));
    }
  }
  const brokenCells = c.cells.filter((x) => x.brokenWithoutFaults);
  if (brokenCells.length) {
    lines.push(
      '',
      ...wrap(
        `Broken without faults (a call fails with no fault at all; no fault was tried): ${plural(brokenCells.length, 'cell')}`,
        SUMMARY_WIDTH,
      ),
    );
    for (const x of brokenCells.slice(0, SHOWN)) lines.push(...indented(`${x.index + 1} ${x.name}: ${x.brokenWithoutFaults!.reason}`));
    if (brokenCells.length > SHOWN) lines.push(`  … and ${brokenCells.length - SHOWN} more in the reports`);
  }
  const errors = c.findings.filter((f) => f.kind === 'policy-error');
  if (errors.length) {
    lines.push('', 'Policy errors:');
    for (const f of errors) lines.push(...indented(`${f.cellName}: ${f.properties[0]!.why}`));
  }
  if (c.interrupted) lines.push('', `INTERRUPTED: ${c.cells.length} of ${c.matrix.size} cells finished.`);
  lines.push(...bestFixes(c, groups));
  return `${lines.join('\n')}\n`;
}

/** What else the finder considered for a group: the pair search, and the changes that break the fault-free run. */
function consideredText({ wouldBreak, pairs }: ReturnType<typeof groupConsidered>): string {
  const parts: string[] = [];
  if (pairs.findings)
    parts.push(`pairs: ${plural(pairs.tried, 'pair')} tried, ${pairs.searched} searched, where no single change holds clean`);
  if (wouldBreak.length) parts.push(`would break the fault-free run: ${wouldBreak.map((w) => w.change).join(', ')}`);
  return parts.length ? ` | ${parts.join(' | ')}` : '';
}

/** The summary's last lines: per silent group, the best fix and how it holds (the first of its ranked fixes). */
function bestFixes(c: Comparison, groups: readonly NumberedGroup[]): string[] {
  const silent = groups.filter((g) => g.silent);
  if (!silent.length) return [];
  const t = whatChangesWhat(c, groups);
  const searched = new Set(t.groups.map((g) => g.label));
  const byId = findingsById(c);
  const lines = ['', 'Best fix per silent group (ranked as above):'];
  for (const g of silent.slice(0, SHOWN)) {
    const best = rankedFixes(t.rows, g)[0];
    const text = !searched.has(g.label)
      ? 'none searched: silent only by a tool that ran twice (at-most-once); the finder tries changes against calls that go silent'
      : best
        ? `${best.change}, ${best.fared} (holds for ${best.holds}/${best.of})`
        : `no change holds${groupConsidered(c, g, byId).pairs.findings ? ' (nor any pair tried)' : ''}`;
    lines.push(...indented(`${g.label}: ${text}`));
  }
  if (silent.length > SHOWN) lines.push(`  … and ${silent.length - SHOWN} more in the reports`);
  return lines;
}

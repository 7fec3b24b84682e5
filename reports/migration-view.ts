// The migration table (`compare --matrix migration`) as Markdown and HTML: per seed cell and
// alphabet, how each revision pair fares, then each silent failure the move to 2026-07-28
// removes, keeps or adds, with the shrunk plan (and its minimality) that shows it.
import type { Comparison } from '../sim/compare/compare.ts';
import type { MigrationPlan, MigrationRow } from '../sim/compare/migration.ts';
import { describePlan } from '../sim/core/plan.ts';
import { describeWorkload } from '../sim/core/workload.ts';
import { esc, mdText } from './escape.ts';

const CHANGE_MARK = { removed: 'removed ✅', kept: 'kept ⚠️', added: 'added ❌' } as const;

function plan(p: MigrationPlan | null): string {
  if (!p) return '—';
  const minimal = p.minimal === null ? '' : p.minimal ? ' (minimal)' : ' (not minimal)';
  return `${describePlan(p.faults)} · ${describeWorkload(p.workload)}${minimal}`;
}

function pairs(r: MigrationRow): string {
  return r.pairs.map((p) => `${p.pair}: ${p.class}${p.silent.length ? ` (${p.silent.join(', ')})` : ''}`).join('; ');
}

/** The mixed pairs where the revisions cannot meet, each reason once with how many pairs give it. */
function cannotMeet(rows: readonly MigrationRow[]): { reason: string; pairs: string[]; count: number }[] {
  const m = new Map<string, { reason: string; pairs: string[]; count: number }>();
  for (const r of rows)
    for (const p of r.pairs) {
      if (!p.broken) continue;
      const e = m.get(p.broken) ?? { reason: p.broken, pairs: [], count: 0 };
      e.count++;
      if (!e.pairs.includes(p.pair)) e.pairs.push(p.pair);
      m.set(p.broken, e);
    }
  return [...m.values()];
}

function cannotMeetText(rows: readonly MigrationRow[]): string {
  const broken = cannotMeet(rows);
  if (!broken.length) return '';
  const each = broken.map((b) => `${b.pairs.join(', ')} (${b.count}): ${b.reason}`).join('; ');
  return ` Pairs where the two revisions cannot meet are broken without faults: no fault was tried there, and they count as a failure mode of neither revision (${each}).`;
}

/** A count line: how many silent failures the revision removes, keeps and adds, over every row. */
export function migrationSummary(rows: readonly MigrationRow[]): Record<'removed' | 'kept' | 'added', number> {
  const n = { removed: 0, kept: 0, added: 0 };
  for (const r of rows) for (const c of r.changes) n[c.change]++;
  return n;
}

export function migrationMarkdown(c: Comparison): string[] {
  if (!c.migration) return [];
  const n = migrationSummary(c.migration);
  const lines = [
    '## Migration: 2025-11-25 → 2026-07-28',
    '',
    `The same policies and faults under both revisions. Silent failures the new revision removes: **${n.removed}**, keeps: **${n.kept}**, adds: **${n.added}** (over ${c.migration.length} seed cells × alphabets; each with the shrunk plan under the revision where it fails).${mdText(cannotMeetText(c.migration))}`,
    '',
  ];
  for (const r of c.migration) {
    lines.push(`### ${mdText(r.cell)}`, '', `Pairs: ${mdText(pairs(r))}`, '');
    if (r.changes.length === 0) {
      lines.push('No silent failure under either revision.', '');
      continue;
    }
    lines.push('| silent failure | change | plan under 2025-11-25 | plan under 2026-07-28 |', '|---|---|---|---|');
    for (const ch of r.changes)
      lines.push(`| ${ch.property} | ${CHANGE_MARK[ch.change]} | ${mdText(plan(ch.legacy))} | ${mdText(plan(ch.modern))} |`);
    lines.push('');
  }
  return lines;
}

export function migrationHtml(c: Comparison): string {
  if (!c.migration) return '';
  const n = migrationSummary(c.migration);
  const rows = c.migration
    .map((r) => {
      const changes =
        r.changes.length === 0
          ? '<tr><td colspan="4">no silent failure under either revision</td></tr>'
          : r.changes
              .map(
                (ch) =>
                  `<tr class="${ch.change}"><td>${esc(ch.property)}</td><td>${esc(CHANGE_MARK[ch.change])}</td><td>${esc(plan(ch.legacy))}</td><td>${esc(plan(ch.modern))}</td></tr>`,
              )
              .join('');
      return `<h3>${esc(r.cell)}</h3><p>${esc(pairs(r))}</p><table class="migration"><thead><tr><th>silent failure</th><th>change</th><th>plan under 2025-11-25</th><th>plan under 2026-07-28</th></tr></thead><tbody>${changes}</tbody></table>`;
    })
    .join('\n');
  return `<section id="migration"><h2>Migration: 2025-11-25 → 2026-07-28</h2><p>Silent failures the new revision removes: <b>${n.removed}</b>, keeps: <b>${n.kept}</b>, adds: <b>${n.added}</b>.${esc(cannotMeetText(c.migration))}</p>\n${rows}\n</section>`;
}

// The recommendation (sim/compare/recommendation.ts) as compare.md opens with it: what it was computed
// over and on which order; per scope, what no combination fixes (first, where none is free of silent
// failure), then the ranked server, client and pair lists as tables, each row with its failures (the
// finding, linked where the report details it, its cause group and mechanism).
import type { Ranked, Recommendation, RecommendationScope } from '../sim/compare/recommendation.ts';
import { choiceName, survivesText, unfixedText, widespreadText } from './compare-recommendation-text.ts';
import { inlineCode, mdText } from './escape.ts';

function failuresText(r: Ranked, link: (id: string) => string): string {
  const silent = r.failures.filter((f) => f.silent);
  if (!silent.length) return '';
  return silent.map((f) => `${link(f.finding)} ${f.group ?? ''} ${mdText(f.plan)} → ${mdText(f.how)}`).join('<br>');
}

function list(title: string, rows: readonly Ranked[], scope: RecommendationScope, link: (id: string) => string): string[] {
  if (!rows.length) return [];
  const out = [
    `**${title}**`,
    '',
    '| rank | choice | class | silent calls | runs with a tool run twice | runs with capabilities changed | re-handshakes | refused calls | families | silent failures (finding, group, plan → mechanism) |',
    '|---:|---|---|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const r of rows) {
    const n = r.counts;
    const tied = r.tiedWith.count
      ? ` (indistinguishable from ${r.tiedWith.shown.map(inlineCode).join(', ')}${r.tiedWith.count > r.tiedWith.shown.length ? ` and ${r.tiedWith.count - r.tiedWith.shown.length} more` : ''})`
      : '';
    out.push(
      `| ${r.rank} | ${r.changes.length ? inlineCode(choiceName(r)) : choiceName(r)}${tied} | ${r.class} | ${n.silentCalls} | ${n.duplicateRuns} | ${n.capsChangedRuns} | ${n.roundTrips} | ${n.refused} | ${mdText(survivesText(r, scope))} | ${failuresText(r, link)} |`,
    );
  }
  return [...out, ''];
}

/** The "Recommendation" section; `anchors`: the findings the report details, by id. */
export function recommendationMarkdown(r: Recommendation, anchors: ReadonlyMap<string, string>): string[] {
  const link = (id: string) => (anchors.has(id) ? `[${mdText(id)}](#${anchors.get(id)})` : inlineCode(id));
  const partial = r.over.partial ? ` (of ${r.over.of}: this run did not finish them all)` : '';
  const lines = [
    '## Recommendation',
    '',
    `Computed over the ${r.over.cells} cells${partial} of the **${r.over.matrix}** matrix that ran (seed ${r.over.seed}, ${r.over.runs} runs per cell), nothing else. Each scope is a record's workload under one fault alphabet; the server list keeps the client at the scope's baseline, the client list keeps the server, the pair list changes both. Ranked on, first deciding:`,
    '',
    ...r.order.map((o, i) => `${i + 1}. ${o}`),
    '',
    'Counts are over the same inputs for every combination of a scope (one seed, one shape, one alphabet). Combinations no criterion tells apart and whose costs differ by less than a tenth share a rank: the data does not say which is better. "Survives" names the families no silent finding involves; for a combination with silent findings the search keeps one counterexample per property, so a family may be masked.',
    '',
  ];
  for (const s of r.scopes) {
    lines.push(`### ${mdText(s.name)}`, '');
    lines.push(`Baseline: ${s.baseline.label}; ${s.combinations} combinations; families: ${s.families.join(', ')}.`, '');
    if (!s.clean) {
      lines.push(`**No combination of the ${s.combinations} is free of silent failure.**`, '');
      for (const u of s.unfixed) lines.push(`- Silent in every combination: ${mdText(unfixedText(u))}`);
      if (s.defeatEvery.length) lines.push(`- Families in a silent finding of every combination: ${s.defeatEvery.join(', ')}`);
      for (const u of s.widespread) lines.push(`- ${mdText(widespreadText(u, s.combinations))}`);
      lines.push('');
    }
    lines.push(...list('Server', s.server, s, link), ...list('Client', s.client, s, link), ...list('Pair', s.pair, s, link));
  }
  return lines;
}

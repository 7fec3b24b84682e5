// The recommendation (sim/compare/recommendation.ts) as compare.html opens with it: what it was
// computed over and on which order; per scope, first what no combination fixes (where none is free of
// silent failure), then the ranked server, client and pair choices, each with its class, what it
// survives and its silent failures (the finding, linked where the page details it). The words are the
// terminal's and compare.md's (compare-recommendation-text.ts), so the three say one thing.
import type { Ranked, Recommendation, RecommendationScope } from '../sim/compare/recommendation.ts';
import { choiceName, survivesText, unfixedText, widespreadText } from './compare-recommendation-text.ts';
import { classSlug } from './compare-html-heatmap.ts';
import { esc } from './escape.ts';

function findingLink(id: string, shown: ReadonlySet<string>): string {
  return shown.has(id) ? `<a class="flink" href="#finding-${esc(id)}">${esc(id)}</a>` : `<code>${esc(id)}</code>`;
}

function list(title: string, rows: readonly Ranked[], scope: RecommendationScope, shown: ReadonlySet<string>): string {
  if (rows.length === 0) return '';
  const body = rows
    .map((r) => {
      const tied = r.tiedWith.count
        ? ` <span class="tied">(indistinguishable from ${r.tiedWith.shown.map((x) => `<code>${esc(x)}</code>`).join(', ')}${r.tiedWith.count > r.tiedWith.shown.length ? ` and ${r.tiedWith.count - r.tiedWith.shown.length} more` : ''})</span>`
        : '';
      const failures = r.failures
        .filter((f) => f.silent)
        .map((f) => `${findingLink(f.finding, shown)} ${esc(f.group ?? '')} <code>${esc(f.plan)}</code> → ${esc(f.how)}`)
        .join('<br>');
      return `<tr><td>${r.rank}</td><td>${r.changes.length ? `<code>${esc(choiceName(r))}</code>` : esc(choiceName(r))}${tied}</td><td class="c ${esc(classSlug(r.class))}">${esc(r.class)}</td><td>${esc(survivesText(r, scope))}</td><td>${failures}</td></tr>`;
    })
    .join('');
  return `<h4>${esc(title)}</h4><table class="listed"><thead><tr><th>rank</th><th>choice</th><th>class</th><th>families</th><th>silent failures (finding, group, plan → mechanism)</th></tr></thead><tbody>${body}</tbody></table>`;
}

export function recommendationHtml(r: Recommendation | undefined, shown: ReadonlySet<string>): string {
  if (!r) return '';
  const partial = r.over.partial ? ` (of ${r.over.of}: this run did not finish them all)` : '';
  const scopes = r.scopes
    .map((s) => {
      const unfixed = s.clean
        ? ''
        : `<div class="unfixed" role="note"><p><b>No combination of the ${s.combinations} is free of silent failure.</b></p><ul>${s.unfixed.map((u) => `<li>Silent in every combination: ${esc(unfixedText(u))}</li>`).join('')}${s.defeatEvery.length ? `<li>Families in a silent finding of every combination: ${esc(s.defeatEvery.join(', '))}</li>` : ''}${s.widespread.map((u) => `<li>${esc(widespreadText(u, s.combinations))}</li>`).join('')}</ul></div>`;
      return `<section class="scope"><h3>${esc(s.name)}</h3><p>Baseline: ${esc(s.baseline.label)}; ${s.combinations} combinations; families: ${esc(s.families.join(', '))}.</p>${unfixed}${list('Server', s.server, s, shown)}${list('Client', s.client, s, shown)}${list('Pair', s.pair, s, shown)}</section>`;
    })
    .join('');
  return `<section id="recommendation"><h2>Recommendation</h2><p>Computed over the ${r.over.cells} cells${esc(partial)} of the <b>${esc(r.over.matrix)}</b> matrix that ran (seed ${esc(r.over.seed)}, ${esc(r.over.runs)} runs per cell), nothing else. Ranked on, first deciding:</p><ol>${r.order.map((o) => `<li>${esc(o)}</li>`).join('')}</ol>${scopes}</section>`;
}

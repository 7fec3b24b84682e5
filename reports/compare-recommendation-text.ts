// The recommendation (sim/compare/recommendation.ts) as the terminal shows it, first: per scope, the
// best server, client and pair choice in one line each, or, where no combination is free of silent
// failure, that first, with what defeats every combination and what outside the vocabulary would be
// needed. The reports hold every ranked combination with each failure (compare-recommendation-md.ts).
import type { Ranked, Recommendation, RecommendationScope, Unfixed } from '../sim/compare/recommendation.ts';
import { wrapWords } from './table.ts';
import { plural } from './words.ts';

/** A ranked combination's name: what it changes from its scope's baseline. */
export function choiceName(r: Pick<Ranked, 'changes'>): string {
  return r.changes.length ? r.changes.join(' + ') : 'the baseline, unchanged';
}

/** How it fared over its cell's runs, in a few words: class (its silent failures), its cost. */
export function faredText(r: Ranked): string {
  const n = r.counts;
  const replayedTwice = n.duplicateRuns === 0 && r.failures.some((f) => f.replayed && f.mechanism === 'duplicate-execution');
  const twice = replayedTwice
    ? 'no run of its own, one replayed counterexample, with a tool run twice'
    : `${plural(n.duplicateRuns, 'run')} with a tool run twice`;
  const silent = r.silent ? ` (${plural(n.silentCalls, 'silent call')}, ${twice})` : '';
  return `${r.class}${silent}; ${n.roundTrips} re-handshakes, ${n.refused} refused calls in ${n.runs} runs`;
}

/** The families it survives, or for a silent one the families of its silent findings, with their groups. */
export function survivesText(r: Ranked, scope: RecommendationScope): string {
  if (!r.silent) return r.survives.length === scope.families.length ? 'survives every family' : `survives ${r.survives.join(', ')}`;
  const by = new Map<string, string[]>();
  for (const f of r.failures.filter((x) => x.silent))
    for (const k of f.families) by.set(k, [...new Set([...(by.get(k) ?? []), f.group ?? f.mechanism])]);
  return `defeated by ${[...by].map(([k, groups]) => `${k} (${groups.join(', ')})`).join(', ')}`;
}

function tiedText(r: Ranked): string {
  if (r.tiedWith.count === 0) return '';
  const more = r.tiedWith.count - r.tiedWith.shown.length;
  return ` or ${r.tiedWith.shown.join(' or ')}${more > 0 ? ` or ${more} more` : ''} (indistinguishable)`;
}

/** The best of a list, with the others of its rank named on it; the pair's, when it is a side's best. */
function bestLine(side: string, list: readonly Ranked[], scope: RecommendationScope, seen: Map<string, string>): string | null {
  const best = list[0];
  if (!best) return null;
  const name = choiceName(best);
  const same = seen.get(name);
  if (same) return `${side}: as ${same}${tiedText(best)}`;
  seen.set(name, side);
  return `${side}: ${name}${tiedText(best)}: ${faredText(best)}; ${survivesText(best, scope)}`;
}

export function unfixedText(u: Unfixed): string {
  const fix = u.fixes.find((x) => x.proposal);
  const shown = fix ? `; a run shows ${fix.change} (${fix.proposal}) holds for ${fix.holds}/${fix.of} of them, ${fix.fared}` : '';
  const needs = u.outside ? `; needs, outside the vocabulary: ${u.outside}` : '';
  return `${u.mechanism} (${u.groups.join(', ')}; ${u.families.join(', ')}), e.g. ${u.finding}: ${u.how}${byReplayText(u)}${needs}${shown}`;
}

/** Where only replays showed it in some combinations, how many (their own runs never met it). */
export function byReplayText(u: Unfixed): string {
  if (u.shownByReplay === 0) return '';
  return `; in ${plural(u.shownByReplay, 'combination')} its own runs never met it and another cell's counterexample, replayed there, did`;
}

/** A mechanism silent in most combinations but not all, with how many. */
export function widespreadText(u: Unfixed, of: number): string {
  return `silent in ${u.silentIn} of ${of} (the others' runs and the finder's replays never met it there): ${unfixedText(u)}`;
}

/** The terminal's first lines, folded to `width`. */
export function recommendationText(r: Recommendation, width: number): string[] {
  const item = (text: string, indent: number) =>
    wrapWords(text, width - indent - 2).map((l, i) => `${' '.repeat(i === 0 ? indent : indent + 2)}${l}`);
  const over = `${r.over.cells}${r.over.partial ? ` of ${r.over.of}` : ''} cells of the ${r.over.matrix} matrix run`;
  const order = r.order.map((o) => o.split(' (')[0]!.replace(/^cost: /, '')).join(' > ');
  const lines = [...wrapWords(`Recommendation, over the ${over}; ranked: ${order}.`, width)];
  for (const s of r.scopes) {
    lines.push('');
    const head = s.clean
      ? `${s.name}, from ${s.baseline.label} (${plural(s.combinations, 'combination')}):`
      : `${s.name}: NO combination of the ${s.combinations} is free of silent failure. Least bad, from ${s.baseline.label}:`;
    lines.push(...item(head, 0));
    if (!s.clean) for (const u of s.unfixed) lines.push(...item(`silent in every one: ${unfixedText(u)}`, 2));
    if (!s.clean && s.unfixed.length === 0) {
      lines.push(
        ...item(`no one mechanism is silent in every one; families in a silent finding of each: ${s.defeatEvery.join(', ') || 'none'}`, 2),
      );
      for (const u of s.widespread) lines.push(...item(widespreadText(u, s.combinations), 2));
    }
    const seen = new Map<string, string>();
    for (const [side, list] of [
      ['server', s.server],
      ['client', s.client],
      ['pair', s.pair],
    ] as const) {
      const line = bestLine(side, list, s, seen);
      if (line) lines.push(...item(line, 2));
    }
  }
  return lines;
}

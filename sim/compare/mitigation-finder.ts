// The mitigation finder as a comparison asks it, for one silent finding: the single changes
// (compare/mitigations.ts), those broken without faults left out and listed apart, ranked; and where
// none holds clean, the bounded search of pairs (compare/mitigation-pairs.ts). Every search is asked
// of a searcher: a comparison's shared queue (`findMitigations`), or run here at once (`mitigationsOf`,
// which tests compare it with).
import type { Combination } from '../../models/policies.ts';
import type { Finding } from './findings.ts';
import { MitigationSearches, type Searched } from './mitigation-searches.ts';
import { runSearch, searchedCombination, type MitigationContext } from './mitigation-runs.ts';
import { ranked, replaysOf, searched, wouldBreakOf, type Mitigation, type WouldBreak } from './mitigations.ts';
import { needsPairs, pairSearch, type PairSearch } from './mitigation-pairs.ts';

/** What the finder found for one silent finding, as the reports carry it on the finding. */
export interface FoundMitigations {
  /** The single changes that work without faults, ranked: those that hold first (clean, loud and
   *  recovers, loud and never recovers), then the rest. */
  mitigations: Mitigation[];
  /** The single changes left out: each breaks the fault-free run (compare/fault-free.ts). */
  wouldBreak: WouldBreak[];
  /** The pair search, where no single change holds clean. */
  pairs?: PairSearch;
}

type Searcher = (c: Combination) => Searched | Promise<Searched>;

async function find(f: Finding, x: Omit<MitigationContext, 'cache'>, search: Searcher): Promise<FoundMitigations> {
  const tried = replaysOf(f, x);
  const marks = await Promise.all(tried.map((t) => (searched(t) ? search(t.combination) : null)));
  const mitigations = ranked(f, tried, marks);
  const wouldBreak = wouldBreakOf(tried);
  if (!needsPairs(mitigations)) return { mitigations, wouldBreak };
  return { mitigations, wouldBreak, pairs: pairSearch(f, tried, mitigations, x) };
}

/** The finder's findings for `f`, every search run in this thread at once (remembered in `x.cache`). */
export function mitigationsOf(f: Finding, x: MitigationContext): Promise<FoundMitigations> {
  return find(f, x, (changed) => {
    const c = searchedCombination(changed, x.shape);
    const key = MitigationSearches.keyOf({ combination: c, faults: x.faults, shape: x.shape });
    const hit = x.cache.get(key);
    if (hit) return hit;
    const marks = runSearch(c, x);
    x.cache.set(key, marks);
    return marks;
  });
}

/** `mitigationsOf` with its searches asked of a comparison's queue (run once each, wherever an
 *  executor is free); the replays and the fault-free runs run here, at once. */
export function findMitigations(f: Finding, x: Omit<MitigationContext, 'cache'>, searches: MitigationSearches): Promise<FoundMitigations> {
  return find(f, x, (c) => searches.search({ combination: searchedCombination(c, x.shape), faults: x.faults, shape: x.shape }));
}

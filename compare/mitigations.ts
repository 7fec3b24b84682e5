// The mitigation finder: for a silent finding, which single knob change makes it hold, and how. Each
// combination one knob value away (a guard added or removed counts as one) first replays the
// finding's own plan, workload and schedule, then runs a random search from the comparison's seed
// over the cell's alphabet; a change "holds" when neither goes silent. How it holds is the cell
// class a designer chooses between: clean, loud and recovers, loud and never recovers.
import fc from 'fast-check';
import { PolicyError } from '../models/registry.ts';
import { CLIENT_KNOBS, combination, knobValues, SERVER_KNOBS, type Combination, type Guard } from '../models/policies.ts';
import type { FaultName } from '../models/faults.ts';
import { judge, type Judgement } from '../properties/judge.ts';
import { referenceOf } from '../properties/outcomes.ts';
import type { Property } from '../properties/properties.ts';
import { inputs, type InputShape } from '../search/random/arbitraries.ts';
import { Judge } from '../search/random/check.ts';
import { runWorld } from '../world/world.ts';
import type { Finding } from './findings.ts';

/** How the agent's calls fared under a change: a cell class, or the change's own policy failing. */
export type Fared = 'clean' | 'loud, recovers' | 'loud, never recovers' | 'silent' | 'policy-error';

export interface Mitigation {
  /** `server.reinit=pin-first`, `client.guards+probe`, `client.guards-probe`. */
  change: string;
  /** The finding's own input on the changed combination. */
  replay: Fared;
  /** A random search on the changed combination (null when the replay already went silent). */
  search: { runs: number; fared: Fared; silentRuns: number } | null;
  /** Neither the replay nor the search went silent. */
  holds: boolean;
}

/** Random runs per changed combination at most (a cell's own --runs below it): as many as a default cell. */
export const MITIGATION_RUNS = 200;

const ORDER: Fared[] = ['clean', 'loud, recovers', 'loud, never recovers', 'policy-error', 'silent'];

function faredOf(judgements: readonly Judgement[]): { fared: Fared; silentRuns: number } {
  let silentRuns = 0;
  let loud = false;
  let stuck = false;
  for (const j of judgements) {
    if (j.outcomes.some((o) => o.outcome === 'silent-empty' || o.outcome === 'silent-hang')) silentRuns++;
    if (j.outcomes.some((o) => o.outcome === 'error')) loud = true;
    if (j.verdicts.recovers && !j.verdicts.recovers.holds) stuck = true;
  }
  return { fared: silentRuns > 0 ? 'silent' : !loud ? 'clean' : stuck ? 'loud, never recovers' : 'loud, recovers', silentRuns };
}

/** Every combination one knob value away from `c`, with the change's name, in knob order. */
export function neighbours(c: Combination): { change: string; combination: Combination }[] {
  const out: { change: string; combination: Combination }[] = [];
  for (const knob of Object.keys(SERVER_KNOBS) as (keyof Combination['server'])[]) {
    for (const v of knobValues('server', knob)) {
      if (v === c.server[knob]) continue;
      out.push({ change: `server.${knob}=${v}`, combination: combination({ server: { ...c.server, [knob]: v }, client: c.client }) });
    }
  }
  for (const knob of Object.keys(CLIENT_KNOBS) as (keyof Combination['client'])[]) {
    if (knob === 'guards') {
      for (const g of knobValues('client', 'guards') as Guard[]) {
        const has = c.client.guards.includes(g);
        const guards = has ? c.client.guards.filter((x) => x !== g) : [...c.client.guards, g];
        out.push({ change: `client.guards${has ? '-' : '+'}${g}`, combination: combination({ server: c.server, client: { ...c.client, guards } }) });
      }
      continue;
    }
    for (const v of knobValues('client', knob)) {
      if (v === c.client[knob]) continue;
      out.push({ change: `client.${knob}=${v}`, combination: combination({ server: c.server, client: { ...c.client, [knob]: v } }) });
    }
  }
  return out;
}

export interface MitigationContext {
  seed: number;
  runs: number;
  properties: readonly Property[];
  faults: readonly FaultName[];
  shape: InputShape;
  /** Searches already run in this comparison, by combination, alphabet and shape (speed only). */
  cache: Map<string, Mitigation['search']>;
}

function search(c: Combination, x: MitigationContext): Mitigation['search'] {
  const key = JSON.stringify([c, x.faults, x.shape]);
  if (x.cache.has(key)) return x.cache.get(key)!;
  const arb = inputs({ ...x.shape, plan: { ...x.shape.plan, faults: x.faults } });
  const runs = Math.min(x.runs, MITIGATION_RUNS);
  const j = new Judge(c, {}, x.properties);
  const judgements: Judgement[] = [];
  let result: Mitigation['search'];
  try {
    for (const [plan, workload, schedule] of fc.sample(arb, { seed: x.seed, numRuns: runs })) judgements.push(j.run(plan, workload, schedule).judgement);
    result = { runs, ...faredOf(judgements) };
  } catch (e) {
    if (!(e instanceof PolicyError)) throw e;
    result = { runs: judgements.length, fared: 'policy-error', silentRuns: 0 };
  }
  x.cache.set(key, result);
  return result;
}

function replay(f: Finding, c: Combination, properties: readonly Property[]): Fared {
  try {
    const reference = referenceOf(runWorld({ combination: c, workload: f.workload, plan: [] }));
    const history = runWorld({ combination: c, workload: f.workload, plan: f.plan, schedule: f.schedule });
    return faredOf([judge(history, reference, properties)]).fared;
  } catch (e) {
    if (e instanceof PolicyError) return 'policy-error';
    throw e;
  }
}

export function isSilentFinding(f: Finding): boolean {
  return f.kind === 'violation' && f.outcomes.some((o) => o.outcome === 'silent-empty' || o.outcome === 'silent-hang');
}

/** The single changes tried for a silent finding: those that hold first (cleanest first), then the rest. */
export function mitigationsOf(f: Finding, x: MitigationContext): Mitigation[] {
  const tried = neighbours(f.combination).map(({ change, combination: c }): Mitigation => {
    const r = replay(f, c, x.properties);
    const s = r === 'silent' || r === 'policy-error' ? null : search(c, x);
    return { change, replay: r, search: s, holds: r !== 'silent' && r !== 'policy-error' && s !== null && s.fared !== 'silent' && s.fared !== 'policy-error' };
  });
  const rank = (m: Mitigation) => (m.holds ? ORDER.indexOf(m.search!.fared) : 10 + ORDER.indexOf(m.replay));
  return tried.map((m, i) => ({ m, i })).sort((a, b) => rank(a.m) - rank(b.m) || a.i - b.i).map(({ m }) => m);
}

// Coverage of the machines' definitions: per machine, the states and transitions that runs (or an
// exhaustive exploration) reached, against all of them in the statechart (`xstate/graph`), with the
// unreached ones listed. A transition never taken is a behaviour no verdict says anything about.
import { clientMachine } from '../../models/client.ts';
import { serverMachine } from '../../models/server.ts';
import type { CoverageTally, MachineCoverage, ReachLike } from '../core/reach.ts';
import { catalogOf, withAncestors, type MachineCatalog } from './engine/transitions.ts';

export type { MachineCoverage } from '../core/reach.ts';

function tally(all: readonly string[], reached: ReadonlySet<string>, what: string, catalog: MachineCatalog): CoverageTally {
  for (const r of reached) {
    if (!all.includes(r)) throw new Error(`internal: ${catalog.machine} reached ${what} '${r}', which its definition does not have`);
  }
  const unreached = all.filter((x) => !reached.has(x));
  return { reached: all.length - unreached.length, total: all.length, unreached };
}

function machineCoverage(machine: 'client' | 'server', catalog: MachineCatalog, r: ReachLike['client']): MachineCoverage {
  const states = new Set([...r.states].flatMap(withAncestors));
  return {
    machine,
    states: tally(catalog.states, states, 'state', catalog),
    transitions: tally(catalog.transitions, new Set(r.transitions), 'transition', catalog),
  };
}

/** What was reached (state leaves and transition names), rated against each machine's definition. */
export function coverageReport(reached: ReachLike): MachineCoverage[] {
  return [
    machineCoverage('client', catalogOf(clientMachine), reached.client),
    machineCoverage('server', catalogOf(serverMachine), reached.server),
  ];
}

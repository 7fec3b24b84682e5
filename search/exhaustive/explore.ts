// Exhaustive bounded exploration of one workload: every fault plan of up to `depth` faults, each
// fault of the alphabet at every request the run carries, breadth-first by number of faults.
//
// The world pauses just before the network carries each request; there the explorer either adds
// a fault for that request (one more fault: the next level) or carries it with the faults chosen so
// far (no cost: same level). Worlds are forked, not replayed, and deduplicated by a digest of
// everything that decides their future: the machines, the queue relative to now, the world's
// bookkeeping (world/fork.ts) and the keys of the properties' folds (properties/fold-set.ts). A state first
// reached with f faults is expanded once, with the budget of the cheapest path to it, so the work
// grows with the reachable state space rather than with the number of plans. The number of plans
// covered is still counted exactly, by counting paths through the graph of states afterwards.
import { hash } from 'node:crypto';
import { firesBefore, type FaultName } from '../../models/faults.ts';
import type { Combination } from '../../models/policies.ts';
import { FoldSet } from '../../properties/fold-set.ts';
import { referenceOf } from '../../properties/outcomes.ts';
import { PROPERTIES, type Property } from '../../properties/properties.ts';
import { HISTORY_VERSION } from '../../core/history.ts';
import { sortPlan, type FaultPlan, type PlannedFault } from '../../core/plan.ts';
import { DEFAULT_WORLD, emptyReach, runWorld, type WorldOptions } from '../../world/world.ts';
import { ForkableWorld } from '../../world/fork.ts';
import type { Workload } from '../../core/workload.ts';
import { PathCounter } from './path-count.ts';

export interface ExploreJob {
  combination: Combination;
  workload: Workload;
  /** The fault alphabet. */
  faults: readonly FaultName[];
  depth: number;
  properties?: readonly Property[];
  /** Tie-breaking picks among simultaneous events (world/clock.ts); FIFO when empty. */
  schedule?: readonly number[];
  world?: Partial<WorldOptions>;
  /** Merge equal states (default). Off, the explorer walks the plain tree of plans: for tests. */
  dedup?: boolean;
  /** Stop, incomplete, once this many states have been reached (a deterministic budget). */
  maxStates?: number;
  /** Asked every few hundred states; true stops the exploration, incomplete (the bench's clock). */
  shouldStop?: () => boolean;
}

export interface PropertyOutcome {
  property: string;
  holds: boolean;
  /** Some explored plan reached the property's situation (else its holding is vacuous). */
  reached: boolean;
  /** The first violating plan found with the fewest faults, or null. */
  shortest: FaultPlan | null;
  /** Why that plan violates the property: its fold's verdict at the end of that very run. */
  why: string | null;
}

export interface JobResult {
  workload: Workload;
  /** Levels (numbers of faults) fully explored: the requested depth when complete. */
  depth: number;
  complete: boolean;
  /** Distinct world states reached (paused before a request, its faults not chosen yet), merged. */
  states: number;
  /** Distinct fault plans covered (each fault at a request the run carries), by number of faults. */
  plansByFaults: number[];
  /** Runs that hit the world's step budget (a proof is only as long as its runs: reported). */
  budgetExhausted: number;
  properties: PropertyOutcome[];
  reach: { client: { states: string[]; transitions: string[] }; server: { states: string[]; transitions: string[] } };
}

/** A plan as a persistent list: nodes share their prefixes. */
interface PlanLink {
  fault: PlannedFault;
  prev: PlanLink | null;
}

interface Node {
  /** The state's id in the path counter. */
  id: number;
  /** Paused before request `world.nextRequest`; never resumed itself, only forked. */
  world: ForkableWorld;
  folds: FoldSet;
  /** Faults chosen so far for this request, in canonical order. */
  chosen: readonly FaultName[];
  plan: PlanLink | null;
  cost: number;
  /** Fingerprint of the world and folds (without `chosen`): see `digestOf`. */
  digest: string;
}

/**
 * A state's fingerprint: the first 64 bits of the MD5 of its key, as an 8-character string (the key
 * strings themselves are never kept). Two different states merge only if their fingerprints collide:
 * by the birthday bound, with probability at most n²/2^65 over n distinct states of one job, below
 * 3·10⁻⁸ for a million states and 3·10⁻⁶ for ten million; the bench's largest search (the seed cells to
 * the depth reached in 60 s) keeps each job well under a million states (its states per job are printed).
 */
const digestOf = (s: string) => hash('md5', s, 'binary').slice(0, 8);

function planOf(link: PlanLink | null): FaultPlan {
  const out: PlannedFault[] = [];
  for (let l = link; l; l = l.prev) out.push(l.fault);
  return sortPlan(out.reverse());
}

/** Canonical order of faults at one request: those fired before it first, then alphabet order. */
function orderAlphabet(faults: readonly FaultName[]): FaultName[] {
  return [...faults].sort((a, b) => Number(firesBefore(b)) - Number(firesBefore(a)) || faults.indexOf(a) - faults.indexOf(b));
}

export function exploreJob(job: ExploreJob): JobResult {
  const { combination, workload, depth, dedup = true, maxStates = Infinity } = job;
  const alphabet = orderAlphabet(job.faults);
  const properties = job.properties ?? PROPERTIES;
  const world = { ...DEFAULT_WORLD, ...job.world };
  const schedule = job.schedule ?? [];
  const reference = referenceOf(runWorld({ combination, workload, plan: [] }, world));
  const frame = { version: HISTORY_VERSION, combination, workload, plan: [], schedule };
  const reach = emptyReach();

  const outcomes: PropertyOutcome[] = properties.map((p) => ({ property: p.name, holds: true, reached: false, shortest: null, why: null }));
  const counter = new PathCounter(depth);
  const ids = new Map<string, number>();
  let states = 0;
  let budgetExhausted = 0;

  const terminal = (folds: FoldSet, plan: PlanLink | null) => {
    if (folds.budgetExhausted) budgetExhausted++;
    folds.verdicts().forEach((v, i) => {
      const o = outcomes[i]!;
      if (v.reached) o.reached = true;
      if (!v.holds && o.holds) {
        o.holds = false;
        o.shortest = planOf(plan);
        o.why = v.why ?? '';
      }
    });
  };

  /** Register a state reached over an edge from `parent` (-1: none). Returns its id if it is to be
   *  expanded at this cost, or null when it already was (or will be) at a cost no higher. */
  const register = (
    world: ForkableWorld,
    chosen: readonly FaultName[],
    digest: string,
    cost: number,
    parent: number,
    edgeCost: number,
  ): number | null => {
    const key = `${digest}|${chosen.join(',')}`;
    let id = dedup ? ids.get(key) : undefined;
    if (id === undefined) {
      id = counter.node(world.nextRequest, chosen.length, cost);
      if (dedup) ids.set(key, id);
    } else {
      if (parent >= 0) counter.edge(parent, id, edgeCost);
      if (counter.cost(id) <= cost) return null;
      counter.lower(id, cost); // queued at a higher level, now found cheaper: expand it here
      return id;
    }
    if (parent >= 0) counter.edge(parent, id, edgeCost);
    return id;
  };
  const digestFor = (w: ForkableWorld, f: FoldSet) => (dedup ? digestOf(w.stateKey() + f.key(w.now)) : '');

  const levels: Node[][] = Array.from({ length: depth + 1 }, () => []);
  const folds0 = FoldSet.start(properties, reference, frame);
  const root = new ForkableWorld({ combination, workload, plan: [], schedule }, world, reach);
  if (root.startPaused(folds0)) {
    counter.edgeToEnd(counter.node(0, 0, 0));
    terminal(folds0, null);
  } else {
    const digest = digestFor(root, folds0);
    levels[0]!.push({ id: register(root, [], digest, 0, -1, 0)!, world: root, folds: folds0, chosen: [], plan: null, cost: 0, digest });
  }

  let completed = -1;
  let stopped = false;
  outer: for (let level = 0; level <= depth; level++) {
    // The seeds of a level in the order they were found; each one's no-fault descendants depth-first.
    for (const seed of levels[level]!) {
      const stack: Node[] = [seed];
      while (stack.length > 0) {
        const node = stack.pop()!;
        if (counter.expanded(node.id) || counter.cost(node.id) < node.cost) continue;
        if (node.chosen.length === 0 && (states >= maxStates || (states % 512 === 511 && job.shouldStop?.()))) {
          stopped = true;
          break outer;
        }
        if (node.chosen.length === 0) states++;
        counter.markExpanded(node.id);
        // One more fault for this request: the next level.
        if (node.cost < depth) {
          const last = node.chosen.length > 0 ? alphabet.indexOf(node.chosen[node.chosen.length - 1]!) : 0;
          for (let i = last; i < alphabet.length; i++) {
            const chosen = [...node.chosen, alphabet[i]!];
            const id = register(node.world, chosen, node.digest, node.cost + 1, node.id, 1);
            if (id !== null) levels[level + 1]!.push({ ...node, id, chosen, cost: node.cost + 1 });
          }
        }
        // Carry the request with the faults chosen: same level.
        const folds = node.folds.clone();
        const w = node.world.fork(folds);
        let plan = node.plan;
        for (const fault of node.chosen) plan = { fault: { fault, at: node.world.nextRequest }, prev: plan };
        if (w.resume(node.chosen)) {
          counter.edgeToEnd(node.id);
          terminal(folds, plan);
          continue;
        }
        const digest = digestFor(w, folds);
        const id = register(w, [], digest, node.cost, node.id, 0);
        if (id !== null) stack.push({ id, world: w, folds, chosen: [], plan, cost: node.cost, digest });
      }
    }
    levels[level] = [];
    completed = level;
    if (outcomes.every((o) => !o.holds)) break; // every property has its shortest counterexample
  }

  return {
    workload,
    depth: completed,
    complete: !stopped,
    states,
    plansByFaults: counter.plansByFaults(Math.max(completed, 0)),
    budgetExhausted,
    properties: outcomes,
    reach: {
      client: { states: [...reach.client.states].sort(), transitions: [...reach.client.transitions].sort() },
      server: { states: [...reach.server.states].sort(), transitions: [...reach.server.transitions].sort() },
    },
  };
}

// Exhaustive bounded exploration of one workload: every fault plan of up to `depth` faults, each
// fault of the alphabet at every request the run carries, breadth-first by number of faults.
//
// The world pauses just before the network carries each request; there the explorer either adds
// a fault for that request (one more fault: the next level) or carries it with the faults chosen so
// far (no cost: same level). Worlds are forked and deduplicated by a fingerprint of everything that
// decides their future: the machines, the queue relative to now, the world's bookkeeping
// (world/fork.ts) and the keys of the properties' folds (properties/fold-set.ts). A state first
// reached with f faults is expanded once, with the budget of the cheapest path to it, so the work
// grows with the reachable state space rather than with the number of plans. The number of plans
// covered is still counted exactly, by counting paths through the graph of states afterwards.
//
// Memory: visited states are kept as fingerprints only (fingerprints.ts), and the next levels'
// frontier as a few integers an entry (frontier.ts). A frontier entry forks the world of the state
// it adds faults to; at most `liveWorlds` such worlds are kept at once, the others are re-created
// when needed by replaying their plan from the start (deterministic: the same world, the same folds).
import { firesBefore, type FaultName } from '../../../models/faults.ts';
import { FoldSet } from '../../../properties/fold-set.ts';
import { referenceOf } from '../../../properties/outcomes.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { HISTORY_VERSION } from '../../core/history.ts';
import { sortPlan, type FaultPlan, type PlannedFault } from '../../core/plan.ts';
import { DEFAULT_WORLD, emptyReach, runWorld } from '../../world/world.ts';
import { ForkableWorld } from '../../world/fork.ts';
import { PathCounter } from './path-count.ts';
import { FingerprintTable } from './fingerprints.ts';
import { Frontier } from './frontier.ts';

export type { ExploreJob, JobResult, PropertyOutcome } from './job.ts';
import type { ExploreJob, JobResult, PropertyOutcome } from './job.ts';

/** A plan as a persistent list: nodes share their prefixes. */
interface PlanLink {
  fault: PlannedFault;
  prev: PlanLink | null;
}

/** A state (no fault chosen yet for its next request) being expanded: on the depth-first stack. */
interface StateNode {
  /** The state's id in the path counter. */
  id: number;
  /** Paused before request `world.nextRequest`; never resumed itself, only forked. */
  world: ForkableWorld;
  folds: FoldSet;
  plan: PlanLink | null;
  cost: number;
}

/** A state whose next request gets faults in later levels: what its frontier entries fork. */
interface Base {
  /** Null once dropped (more than `liveWorlds` kept): re-created from `plan` by replay. */
  world: ForkableWorld | null;
  folds: FoldSet | null;
  plan: PlanLink | null;
  request: number;
  /** Frontier entries of this base not expanded yet: at none, no more can come, and it is released. */
  pending: number;
}

/**
 * A state's fingerprint: a 64-bit digest of its key (world/fork.ts `fingerprint`, core/digest.ts; the key
 * is never written out, nor kept). Two different states merge only if their fingerprints collide: by the
 * birthday bound, with probability at most n²/2^65 over n distinct states of one job (taking the digest
 * as uniform, which a non-cryptographic hash is only close to), below 3·10⁻⁸ for
 * a million states and 3·10⁻⁶ for ten million; the bench prints the bound for its largest job.
 */
function planOf(link: PlanLink | null): FaultPlan {
  const out: PlannedFault[] = [];
  for (let l = link; l; l = l.prev) out.push(l.fault);
  return sortPlan(out.reverse());
}

/** Canonical order of faults at one request: those fired before it first, then alphabet order. */
function orderAlphabet(faults: readonly FaultName[]): FaultName[] {
  return [...faults].sort((a, b) => Number(firesBefore(b)) - Number(firesBefore(a)) || faults.indexOf(a) - faults.indexOf(b));
}

export const DEFAULT_LIVE_WORLDS = 4096;

export function exploreJob(job: ExploreJob): JobResult {
  const { combination, workload, depth, dedup = true, maxStates = Infinity, liveWorlds = DEFAULT_LIVE_WORLDS } = job;
  const alphabet = orderAlphabet(job.faults);
  const properties = job.properties ?? PROPERTIES;
  const world = { ...DEFAULT_WORLD, ...job.world };
  const schedule = job.schedule ?? [];
  const input = { combination, workload, plan: [], schedule };
  const reference = referenceOf(runWorld({ combination, workload, plan: [] }, world));
  const frame = { version: HISTORY_VERSION, combination, workload, plan: [], schedule };
  const reach = emptyReach();

  const outcomes: PropertyOutcome[] = properties.map((p) => ({ property: p.name, holds: true, reached: false, shortest: null, why: null }));
  const counter = new PathCounter(depth);
  const seen = new FingerprintTable();
  let states = 0;
  let budgetExhausted = 0;
  let replays = 0;

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

  /** The id of a state reached over an edge from `parent` (-1: none) if it is to be expanded at this
   *  cost, or null when it already was (or will be) at a cost no higher. A state with faults chosen
   *  for its next request is reached only from the one state it extends: those are never looked up. */
  const register = (w: ForkableWorld, folds: FoldSet, cost: number, parent: number): number | null => {
    const fp = dedup ? w.fingerprint(folds.key(w.now)) : null;
    let id = fp ? seen.get(fp) : -1;
    if (id < 0) {
      id = counter.node(w.nextRequest, 0, cost);
      if (fp) seen.add(fp, id);
    } else {
      if (parent >= 0) counter.edge(parent, id, 0);
      if (counter.cost(id) <= cost) return null;
      counter.lower(id, cost); // queued at a higher level, now found cheaper: expand it here
      return id;
    }
    if (parent >= 0) counter.edge(parent, id, 0);
    return id;
  };

  // Bases by index (released ones undefined), and the frontier of each level to come.
  const bases: (Base | undefined)[] = [];
  let live = 0;
  const frontiers = Array.from({ length: depth + 1 }, () => new Frontier());
  /** The frontier entries of one more fault for the request `base` is paused before, after `chosen`. */
  const extend = (b: number, base: Base, chosen: readonly number[], parent: number, cost: number) => {
    const last = chosen.length > 0 ? chosen[chosen.length - 1]! : 0;
    for (let i = last; i < alphabet.length; i++) {
      const id = counter.node(base.request, chosen.length + 1, cost + 1);
      counter.edge(parent, id, 1);
      frontiers[cost + 1]!.push(b, id, chosen, i);
      base.pending++;
    }
  };
  const replay = (base: Base): { world: ForkableWorld; folds: FoldSet } => {
    const byRequest: FaultName[][] = Array.from({ length: base.request }, () => []);
    const faults: PlannedFault[] = [];
    for (let l = base.plan; l; l = l.prev) faults.push(l.fault);
    for (let i = faults.length - 1; i >= 0; i--) byRequest[faults[i]!.at]!.push(faults[i]!.fault);
    const folds = FoldSet.start(properties, reference, frame);
    const w = new ForkableWorld(input, world, reach);
    let ended = w.startPaused(folds);
    for (let r = 0; r < base.request && !ended; r++) ended = w.resume(byRequest[r]!);
    if (ended || w.nextRequest !== base.request) throw new Error('internal: a replayed plan did not reach its state');
    replays++;
    return { world: w, folds };
  };
  let replayed = null as { b: number; world: ForkableWorld; folds: FoldSet } | null;

  const stack: StateNode[] = [];
  const folds0 = FoldSet.start(properties, reference, frame);
  const root = new ForkableWorld(input, world, reach);
  if (root.startPaused(folds0)) {
    counter.edgeToEnd(counter.node(0, 0, 0));
    terminal(folds0, null);
  } else {
    stack.push({ id: register(root, folds0, 0, -1)!, world: root, folds: folds0, plan: null, cost: 0 });
  }

  /** Carry the request `from` is paused before with `chosen`: the run's end, or a state for the stack.
   *  `last`: nothing forks `from` after this, so it is carried itself rather than a copy of it. */
  const carry = (
    id: number,
    from: ForkableWorld,
    folds0: FoldSet,
    plan0: PlanLink | null,
    chosen: readonly FaultName[],
    cost: number,
    last: boolean,
  ) => {
    const folds = last ? folds0 : folds0.clone();
    const w = last ? from : from.fork(folds);
    let plan = plan0;
    for (const fault of chosen) plan = { fault: { fault, at: from.nextRequest }, prev: plan };
    if (w.resume(chosen)) {
      counter.edgeToEnd(id);
      terminal(folds, plan);
      return;
    }
    const next = register(w, folds, cost, id);
    if (next !== null) stack.push({ id: next, world: w, folds, plan, cost });
  };

  let completed = -1;
  let stopped = false;
  const chosenNames: FaultName[] = [];
  outer: for (let level = 0; level <= depth; level++) {
    const frontier = frontiers[level]!;
    // The seeds of a level in the order they were found (level 0: the start); each one's no-fault
    // descendants depth-first.
    for (let seed = level === 0 ? -1 : 0; seed < frontier.length; seed++) {
      if (seed >= 0) {
        // A state with one more fault for its next request: expand it, its carried state to the stack.
        const { base: b, id, chosen } = frontier.entry(seed);
        const base = bases[b]!;
        counter.markExpanded(id);
        if (level < depth) extend(b, base, chosen, id, level);
        let from = base.world;
        let folds = base.folds;
        if (!from) {
          if (replayed?.b !== b) replayed = { b, ...replay(base) };
          from = replayed.world;
          folds = replayed.folds;
        }
        chosenNames.length = 0;
        for (const i of chosen) chosenNames.push(alphabet[i]!);
        carry(id, from, folds!, base.plan, chosenNames, level, base.pending === 1);
        if (--base.pending === 0) {
          if (base.world) live--;
          bases[b] = undefined;
          if (replayed?.b === b) replayed = null;
        }
      }
      while (stack.length > 0) {
        const node = stack.pop()!;
        if (counter.expanded(node.id) || counter.cost(node.id) < node.cost) continue;
        if (states >= maxStates || (states % 512 === 511 && job.shouldStop?.())) {
          stopped = true;
          break outer;
        }
        states++;
        counter.markExpanded(node.id);
        // The world is kept for the frontier entries that add faults to its next request, unless
        // there are none or more than `liveWorlds` are kept (then they replay its plan).
        let kept = false;
        if (node.cost < depth && alphabet.length > 0) {
          kept = live < liveWorlds;
          if (kept) live++;
          const base: Base = {
            world: kept ? node.world : null,
            folds: kept ? node.folds : null,
            plan: node.plan,
            request: node.world.nextRequest,
            pending: 0,
          };
          bases.push(base);
          extend(bases.length - 1, base, [], node.id, node.cost);
        }
        carry(node.id, node.world, node.folds, node.plan, [], node.cost, !kept);
      }
    }
    frontiers[level] = new Frontier();
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
    replays,
    properties: outcomes,
    reach: {
      client: { states: [...reach.client.states].sort(), transitions: [...reach.client.transitions].sort() },
      server: { states: [...reach.server.states].sort(), transitions: [...reach.server.transitions].sort() },
    },
  };
}

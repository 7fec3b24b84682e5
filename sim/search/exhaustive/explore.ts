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
//
// One job is one `Explorer`: the graph of states, the worlds kept for the frontier and the
// depth-first stack are its fields, and each step of the search one short method.
import type { FaultName } from '../../../models/faults.ts';
import { FoldSet } from '../../../properties/fold-set.ts';
import type { HistoryFrame } from '../../../properties/fold.ts';
import { referenceOf, type Reference } from '../../../properties/outcomes.ts';
import type { Property } from '../../../properties/properties.ts';
import { HISTORY_VERSION } from '../../core/history.ts';
import type { PlannedFault } from '../../core/plan.ts';
import type { Combination } from '../../../models/policies.ts';
import { ALL_KNOBS, trackedTwin, type Tracked } from '../../world/knob-reads.ts';
import { emptyReach, runWorld, type RunInput, type WorldOptions } from '../../world/world.ts';
import { ForkableWorld } from '../../world/fork.ts';
import { PathCounter } from './path-count.ts';
import { FingerprintTable } from './fingerprints.ts';
import { Frontier } from './frontier.ts';
import { orderAlphabet, planOf, type Base, type PlanLink, type StateNode } from './explore-nodes.ts';

export type { ExploreConfig, ExploreJob, JobResult, PropertyOutcome } from './job.ts';
import type { ExploreConfig, ExploreJob, JobResult, PropertyOutcome } from './job.ts';

export const DEFAULT_LIVE_WORLDS = 4096;

/** Explore one job under the run's world and properties; `shouldStop`, asked every few hundred
 *  states, ends it incomplete (the bench's clock, a pool's stop flag). */
export function exploreJob(job: ExploreJob, config: ExploreConfig, shouldStop?: () => boolean): JobResult {
  return new Explorer(job, config, shouldStop).run();
}

/** One job's search: level by level (number of faults), each level's frontier entries expanded in
 *  the order they were found, and each one's fault-free descendants depth-first. */
class Explorer {
  private readonly alphabet: FaultName[];
  private readonly properties: readonly Property[];
  private readonly world: WorldOptions;
  private readonly input: RunInput;
  private readonly reference: Reference;
  private readonly frame: HistoryFrame;
  /** What the machines see of the combination: its tracked twin where the job counts its reads (the
   *  fault-free run's reads among them: level 0 runs it again, to the end). */
  private readonly policies: Combination;
  private readonly twin: Tracked | null;
  private readonly reach = emptyReach();
  private readonly outcomes: PropertyOutcome[];
  private readonly counter: PathCounter;
  private readonly seen = new FingerprintTable();
  private readonly dedup: boolean;
  private readonly maxStates: number;
  private readonly liveWorlds: number;
  private states = 0;
  private budgetExhausted = 0;
  private replays = 0;
  /** Bases by index (released ones undefined), how many keep their world, and the frontier of each level to come. */
  private readonly bases: (Base | undefined)[] = [];
  private live = 0;
  private readonly frontiers: Frontier[];
  /** The last base re-created by replay, kept while its entries are expanded one after another. */
  private replayed: { b: number; world: ForkableWorld; folds: FoldSet } | null = null;
  private readonly stack: StateNode[] = [];
  /** The chosen faults of the entry being expanded, by name (one array, reused). */
  private readonly chosenNames: FaultName[] = [];

  constructor(
    private readonly job: ExploreJob,
    config: ExploreConfig,
    private readonly shouldStop: (() => boolean) | undefined,
  ) {
    const { combination, workload, depth } = job;
    this.alphabet = orderAlphabet(job.faults);
    this.properties = config.properties;
    this.world = config.world;
    this.dedup = job.dedup ?? true;
    this.maxStates = job.maxStates ?? Infinity;
    this.liveWorlds = job.liveWorlds ?? DEFAULT_LIVE_WORLDS;
    const schedule = job.schedule ?? [];
    this.input = { combination, workload, plan: [], schedule };
    this.reference = referenceOf(runWorld({ combination, workload, plan: [] }, this.world));
    this.twin = job.countReads ? trackedTwin(combination) : null;
    if (this.twin) this.twin.reads.mask = 0;
    this.policies = this.twin?.combination ?? combination;
    this.frame = { version: HISTORY_VERSION, combination, workload, plan: [], schedule };
    this.outcomes = this.properties.map((p) => ({ property: p.name, holds: true, reached: false, shortest: null, why: null }));
    this.counter = new PathCounter(depth);
    this.frontiers = Array.from({ length: depth + 1 }, () => new Frontier());
  }

  run(): JobResult {
    this.start();
    let completed = -1;
    let stopped = false;
    for (let level = 0; level <= this.job.depth; level++) {
      if (!this.exploreLevel(level)) {
        stopped = true;
        break;
      }
      this.frontiers[level] = new Frontier();
      completed = level;
      if (this.outcomes.every((o) => !o.holds)) break; // every property has its shortest counterexample
    }
    return this.result(completed, stopped);
  }

  /** The root state on the stack, or the run's end if it carries no request. */
  private start(): void {
    const folds = FoldSet.start(this.properties, this.reference, this.frame);
    const root = new ForkableWorld(this.input, this.world, this.reach, undefined, this.policies);
    if (root.startPaused(folds)) {
      this.counter.edgeToEnd(this.counter.node(0, 0, 0));
      this.terminal(folds, null);
    } else {
      this.stack.push({ id: this.register(root, folds, 0, -1)!, world: root, folds, plan: null, cost: 0 });
    }
  }

  /** The seeds of a level in the order they were found (level 0: the start), each one's no-fault
   *  descendants depth-first. False when a budget or `shouldStop` stopped the search. */
  private exploreLevel(level: number): boolean {
    const frontier = this.frontiers[level]!;
    for (let seed = level === 0 ? -1 : 0; seed < frontier.length; seed++) {
      if (seed >= 0) this.expandEntry(frontier, seed, level);
      if (!this.drainStack()) return false;
    }
    return true;
  }

  /** A state with one more fault for its next request: expand it, its carried state to the stack. */
  private expandEntry(frontier: Frontier, seed: number, level: number): void {
    const { base: b, id, chosen } = frontier.entry(seed);
    const base = this.bases[b]!;
    this.counter.markExpanded(id);
    if (level < this.job.depth) this.extend(b, base, chosen, id, level);
    let from = base.world;
    let folds = base.folds;
    if (!from) {
      if (this.replayed?.b !== b) this.replayed = { b, ...this.replay(base) };
      from = this.replayed.world;
      folds = this.replayed.folds;
    }
    const names = this.chosenNames;
    names.length = 0;
    for (const i of chosen) names.push(this.alphabet[i]!);
    this.carry(id, from, folds!, base.plan, names, level, base.pending === 1);
    if (--base.pending === 0) {
      if (base.world) this.live--;
      this.bases[b] = undefined;
      if (this.replayed?.b === b) this.replayed = null;
    }
  }

  /** Expand the states on the stack, depth-first. False when a budget or `shouldStop` stopped it. */
  private drainStack(): boolean {
    const { stack, counter } = this;
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (counter.expanded(node.id) || counter.cost(node.id) < node.cost) continue;
      if (this.states >= this.maxStates || (this.states % 512 === 511 && this.shouldStop?.())) return false;
      this.states++;
      counter.markExpanded(node.id);
      // The world is kept for the frontier entries that add faults to its next request, unless
      // there are none or more than `liveWorlds` are kept (then they replay its plan).
      let kept = false;
      if (node.cost < this.job.depth && this.alphabet.length > 0) {
        kept = this.live < this.liveWorlds;
        if (kept) this.live++;
        const base: Base = {
          world: kept ? node.world : null,
          folds: kept ? node.folds : null,
          plan: node.plan,
          request: node.world.nextRequest,
          pending: 0,
        };
        this.bases.push(base);
        this.extend(this.bases.length - 1, base, [], node.id, node.cost);
      }
      this.carry(node.id, node.world, node.folds, node.plan, [], node.cost, !kept);
    }
    return true;
  }

  /** A run ended: count its budget and take each property's verdict (the first violation is the shortest). */
  private terminal(folds: FoldSet, plan: PlanLink | null): void {
    if (folds.budgetExhausted) this.budgetExhausted++;
    folds.verdicts().forEach((v, i) => {
      const o = this.outcomes[i]!;
      if (v.reached) o.reached = true;
      if (!v.holds && o.holds) {
        o.holds = false;
        o.shortest = planOf(plan);
        o.why = v.why ?? '';
      }
    });
  }

  /** The id of a state reached over an edge from `parent` (-1: none) if it is to be expanded at this
   *  cost, or null when it already was (or will be) at a cost no higher. A state with faults chosen
   *  for its next request is reached only from the one state it extends: those are never looked up. */
  private register(w: ForkableWorld, folds: FoldSet, cost: number, parent: number): number | null {
    const counter = this.counter;
    const fp = this.dedup ? w.fingerprint(folds.key(w.now)) : null;
    let id = fp ? this.seen.get(fp) : -1;
    if (id < 0) {
      id = counter.node(w.nextRequest, 0, cost);
      if (fp) this.seen.add(fp, id);
    } else {
      if (parent >= 0) counter.edge(parent, id, 0);
      if (counter.cost(id) <= cost) return null;
      counter.lower(id, cost); // queued at a higher level, now found cheaper: expand it here
      return id;
    }
    if (parent >= 0) counter.edge(parent, id, 0);
    return id;
  }

  /** The frontier entries of one more fault for the request `base` is paused before, after `chosen`. */
  private extend(b: number, base: Base, chosen: readonly number[], parent: number, cost: number): void {
    const last = chosen.length > 0 ? chosen[chosen.length - 1]! : 0;
    for (let i = last; i < this.alphabet.length; i++) {
      const id = this.counter.node(base.request, chosen.length + 1, cost + 1);
      this.counter.edge(parent, id, 1);
      this.frontiers[cost + 1]!.push(b, id, chosen, i);
      base.pending++;
    }
  }

  /** A dropped base's world and folds, re-created by running its plan again from the start. */
  private replay(base: Base): { world: ForkableWorld; folds: FoldSet } {
    const byRequest: FaultName[][] = Array.from({ length: base.request }, () => []);
    const faults: PlannedFault[] = [];
    for (let l = base.plan; l; l = l.prev) faults.push(l.fault);
    for (let i = faults.length - 1; i >= 0; i--) byRequest[faults[i]!.at]!.push(faults[i]!.fault);
    const folds = FoldSet.start(this.properties, this.reference, this.frame);
    const w = new ForkableWorld(this.input, this.world, this.reach, undefined, this.policies);
    let ended = w.startPaused(folds);
    for (let r = 0; r < base.request && !ended; r++) ended = w.resume(byRequest[r]!);
    if (ended || w.nextRequest !== base.request) throw new Error('internal: a replayed plan did not reach its state');
    this.replays++;
    return { world: w, folds };
  }

  /** Carry the request `from` is paused before with `chosen`: the run's end, or a state for the stack.
   *  `last`: nothing forks `from` after this, so it is carried itself rather than a copy of it. */
  private carry(
    id: number,
    from: ForkableWorld,
    folds0: FoldSet,
    plan0: PlanLink | null,
    chosen: readonly FaultName[],
    cost: number,
    last: boolean,
  ): void {
    const folds = last ? folds0 : folds0.clone();
    const w = last ? from : from.fork(folds);
    let plan = plan0;
    for (const fault of chosen) plan = { fault: { fault, at: from.nextRequest }, prev: plan };
    if (w.resume(chosen)) {
      this.counter.edgeToEnd(id);
      this.terminal(folds, plan);
      return;
    }
    const next = this.register(w, folds, cost, id);
    if (next !== null) this.stack.push({ id: next, world: w, folds, plan, cost });
  }

  private result(completed: number, stopped: boolean): JobResult {
    const { reach } = this;
    return {
      workload: this.job.workload,
      depth: completed,
      complete: !stopped,
      states: this.states,
      plansByFaults: this.counter.plansByFaults(Math.max(completed, 0)),
      budgetExhausted: this.budgetExhausted,
      replays: this.replays,
      properties: this.outcomes,
      ...(this.job.countReads ? { reads: this.twin ? this.twin.reads.mask : ALL_KNOBS } : {}),
      reach: {
        client: { states: [...reach.client.states].sort(), transitions: [...reach.client.transitions].sort() },
        server: { states: [...reach.server.states].sort(), transitions: [...reach.server.transitions].sort() },
      },
    };
  }
}

// How many fault plans an exploration covers. Deduplication expands each state once, but every
// path from the start to the end of a run through the graph of states is a distinct plan, so the
// plans are counted after the fact: per state, the number of ways to finish the run with r more
// faults, summed over its edges (a fault added: 1, a request carried: 0), from the last states back.
// The graph is acyclic: an edge either carries a request (the request index grows) or adds a fault
// at the same request (the number chosen there grows), which is also the order counted in.

/** A growable Int32Array. Small at first: a certification explores a few states, and a full matrix
 *  certifies thousands of findings, each with eight of these. */
export class Ints {
  data = new Int32Array(64);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}

/** The edge target that stands for "the run ended". */
const END = -1;

export class PathCounter {
  private readonly point = new Ints();
  private readonly chosen = new Ints();
  private readonly costs = new Ints();
  private readonly expandedFlags = new Ints();
  private readonly edgeStart = new Ints();
  private readonly edgeCount = new Ints();
  private readonly edgeTo = new Ints();
  private readonly edgeCost = new Ints();

  constructor(private readonly depth: number) {}

  get size(): number {
    return this.costs.length;
  }

  /** A state paused before request `point` with `chosen` faults picked for it, first reached at `cost`. */
  node(point: number, chosen: number, cost: number): number {
    this.point.push(point);
    this.chosen.push(chosen);
    this.costs.push(cost);
    this.expandedFlags.push(0);
    this.edgeStart.push(0);
    this.edgeCount.push(0);
    return this.costs.length - 1;
  }

  cost(id: number): number {
    return this.costs.data[id]!;
  }

  /** A cheaper path to a state not yet expanded. */
  lower(id: number, cost: number): void {
    if (this.expandedFlags.data[id]) throw new Error('internal: a cheaper path to a state already expanded');
    this.costs.data[id] = cost;
  }

  expanded(id: number): boolean {
    return this.expandedFlags.data[id] === 1;
  }

  /** Edges are recorded while a state is expanded, so each state's edges are contiguous. */
  markExpanded(id: number): void {
    this.expandedFlags.data[id] = 1;
    this.edgeStart.data[id] = this.edgeTo.length;
  }

  edge(from: number, to: number, cost: number): void {
    if (this.edgeStart.data[from]! + this.edgeCount.data[from]! !== this.edgeTo.length)
      throw new Error('internal: edges of a state recorded apart');
    this.edgeTo.push(to);
    this.edgeCost.push(cost);
    this.edgeCount.data[from]!++;
  }

  edgeToEnd(from: number): void {
    this.edge(from, END, 0);
  }

  /** Plans from the first state to the end of the run, by number of faults, up to `maxFaults`. */
  plansByFaults(maxFaults = this.depth): number[] {
    const n = this.size;
    if (n === 0) return [];
    const width = maxFaults + 1;
    const out = new Float64Array(n * width);
    const order = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) => this.point.data[b]! - this.point.data[a]! || this.chosen.data[b]! - this.chosen.data[a]!,
    );
    for (const v of order) {
      const start = this.edgeStart.data[v]!;
      for (let e = start; e < start + this.edgeCount.data[v]!; e++) {
        const to = this.edgeTo.data[e]!;
        const c = this.edgeCost.data[e]!;
        if (to === END) {
          out[v * width]! += 1;
          continue;
        }
        for (let r = c; r < width; r++) out[v * width + r]! += out[to * width + r - c]!;
      }
    }
    return Array.from(out.subarray(0, width));
  }
}

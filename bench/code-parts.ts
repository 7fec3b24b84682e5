// The parts of the code a profile is summed by (the bench's "parts" section, `npm run bench:profile`):
// each file of the package belongs to the first part whose test it passes, so the engine's and the
// explorer's time and bytes read as the design's parts (the models, the world, the folds, the stepper,
// the fingerprints) rather than as a list of files. Files are named by their sources (dist/ maps back).

export const GC_PART = 'garbage collection';
export const ELSEWHERE = 'node, module loading, other';

const PARTS: readonly [part: string, test: (file: string) => boolean][] = [
  ["the models' reducers (models/)", (f) => f.startsWith('models/')],
  ['the compiled stepper (sim/world/engine/)', (f) => f.startsWith('sim/world/engine/')],
  ['forking worlds (sim/world/fork.ts)', (f) => f === 'sim/world/fork.ts'],
  ["the world's dispatch (sim/world/)", (f) => f.startsWith('sim/world/')],
  ['the property folds and the judge (properties/)', (f) => f.startsWith('properties/')],
  ['fingerprinting states (sim/core/digest.ts)', (f) => f === 'sim/core/digest.ts'],
  ["the explorer's bookkeeping (sim/search/exhaustive/)", (f) => f.startsWith('sim/search/exhaustive/')],
  ['the random search, shrinking and the run store (sim/search/)', (f) => f.startsWith('sim/search/')],
  ['plans, histories, workloads (sim/core/)', (f) => f.startsWith('sim/core/')],
  ["the rest of the package (CLI, compare, reports) and the bench's loop", () => true],
];

/** Every part, in the order of the list above, then the collector and what is not ours. */
export const ALL_PARTS: readonly string[] = [...PARTS.map(([p]) => p), GC_PART, ELSEWHERE];

/** The part of a source file of the package (a path from the root: `models/server.ts`). */
export function partOfFile(file: string): string {
  return PARTS.find(([, test]) => test(file))![0];
}

/** A profile frame's file as a source path from `root` (dist/x.js → x.ts), or null where it is not
 *  the package's own code (node, dependencies, tsx). */
export function sourceOfUrl(url: string, root: string): string | null {
  const prefix = `file://${root}`;
  if (!url.startsWith(prefix) || url.includes('node_modules')) return null;
  const file = url.slice(prefix.length);
  return file.startsWith('dist/') ? file.slice(5).replace(/\.js(\?|$)/, '.ts$1') : file;
}

/** The part of a profile frame: the collector's pseudo-frame, our code's part, or elsewhere. */
export function partOfFrame(functionName: string, url: string, root: string): string {
  if (functionName === '(garbage collector)') return GC_PART;
  const file = sourceOfUrl(url, root);
  return file === null ? ELSEWHERE : partOfFile(file);
}

export interface PartShare {
  part: string;
  /** Percent of the whole, one decimal. */
  share: number;
  /** The amount itself where it means something on its own (bytes per session); else absent. */
  amount?: number;
}

/** Amounts by part as shares of their sum, largest first (parts with none left out). */
export function sharesOf(byPart: ReadonlyMap<string, number>, withAmount = false): PartShare[] {
  let total = 0;
  for (const v of byPart.values()) total += v;
  return [...byPart]
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1] || ALL_PARTS.indexOf(a[0]) - ALL_PARTS.indexOf(b[0]))
    .map(([part, v]) => ({ part, share: Math.round((v / total) * 1000) / 10, ...(withAmount ? { amount: Math.round(v) } : {}) }));
}

/** Amounts (self time, bytes) summed by the part of the code of the frame they were spent in. */
export class PartSums {
  private readonly byPart = new Map<string, number>();

  constructor(private readonly root: string) {}

  /** Adds `amount` to the frame's part, and returns that part. */
  add(frame: { functionName: string; url: string }, amount: number): string {
    const part = partOfFrame(frame.functionName, frame.url, this.root);
    this.byPart.set(part, (this.byPart.get(part) ?? 0) + amount);
    return part;
  }

  shares(withAmount = false): PartShare[] {
    return sharesOf(this.byPart, withAmount);
  }
}

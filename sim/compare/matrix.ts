// The comparison matrix: which combinations `compare` runs, each under which fault alphabet. The
// default is the seed records' named cells, each under its record's alphabet and under the whole
// vocabulary; `full` is every value of every knob of 2025-11-25 (guards: every subset) under the
// whole vocabulary.
// A cut (`--server reinit=a|b`, `--client …`) keeps the cells whose knobs take the listed values.
import { faultVocabulary, type FaultName } from '../../models/faults.ts';
import {
  combination,
  knobsOf,
  normalizeSet,
  withModuleKnobs,
  type ClientProtocol,
  type Combination,
  type Knob,
  type ServerProtocol,
} from '../../models/policies.ts';
import { NO_ADDITIONS, type PolicyAdditions } from '../../models/additions.ts';
import type { InputShape } from '../search/random/arbitraries.ts';
import { SEED_CELLS, type Cell, type ExtraCell } from '../core/cells.ts';

export type MatrixKind = 'records' | 'full' | 'migration';
export const MATRIX_KINDS: readonly MatrixKind[] = ['records', 'full', 'migration'];
/** Old names still accepted by `--matrix`, with the name they stand for ("seed" now means only the random seed). */
export const DEPRECATED_MATRIX_KINDS: Readonly<Record<string, MatrixKind>> = { seeds: 'records' };

/** Knob values to keep, as `parseKnobList` returns them; a missing knob is not cut. */
export interface Cut {
  server: Record<string, string[]>;
  client: Record<string, string[]>;
}

export interface MatrixCell {
  /** Position in the whole matrix: shards and merges order by it. */
  index: number;
  /** Unique in the matrix, safe in a file name and an HTML id. */
  id: string;
  name: string;
  record: '000' | '003' | null;
  role: Cell['role'] | 'product' | 'user';
  /** The record's own fault alphabet, the one a policy module gave its cell, or the whole vocabulary. */
  alphabet: 'record alphabet' | 'cell alphabet' | 'all faults';
  combination: Combination;
  faults: readonly FaultName[];
  /** The property the record is about, when the cell comes from a record. */
  property: string | null;
  shape: InputShape;
  /** Wire cells (`compare --wire`): real code on a side, through the wire tier (wire/). */
  wire?: WireChoice;
  /** Migration cells (`--matrix migration`): the seed cell this is a revision pair of, and the pair. */
  migration?: { cell: string; pair: RevisionPair['name'] };
}

/** Which revision each side speaks in a migration cell. */
export interface RevisionPair {
  name: '2025-11-25' | '2026-07-28' | 'new client × legacy server' | 'legacy client × new server' | 'negotiate × dual';
  server: ServerProtocol;
  client: ClientProtocol;
}

/** Both revisions, and the mixed pairs a migration goes through. The first two are compared. */
export const REVISION_PAIRS: readonly RevisionPair[] = [
  { name: '2025-11-25', server: '2025-11-25', client: '2025-11-25' },
  { name: '2026-07-28', server: '2026-07-28', client: '2026-07-28' },
  { name: 'new client × legacy server', server: '2025-11-25', client: '2026-07-28' },
  { name: 'legacy client × new server', server: '2026-07-28', client: '2025-11-25' },
  { name: 'negotiate × dual', server: 'dual', client: 'negotiate' },
];

/** Which side of a wire cell is real code: an official SDK client (v1 `sdk`, v2 `sdk2`), or an SDK server preset. */
export interface WireChoice {
  /** `cmd`: a client process (`compare --wire --client-cmd`), its command line in `command`. */
  client: 'model' | 'sdk' | 'sdk2' | 'cmd';
  command?: string;
  server: 'model' | 'sdk-sse' | 'sdk-json' | 'sdk2-sse' | 'sdk2-json';
  /** The revision both v2 sides speak; absent: 2025-11-25 (the only one the v1 SDK and the model speak). */
  protocol?: '2026-07-28';
}

const ALL = 'all faults' as const;

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function shapeOf(progressCalls: boolean): InputShape {
  return { workload: { overlap: false, progress: progressCalls ? 'always' : 'any' } };
}

/** The seed cells (and any a policy module added), each under its own alphabet and the whole vocabulary. */
export function seedMatrix(extra: readonly ExtraCell[] = [], additions: PolicyAdditions = NO_ADDITIONS): Omit<MatrixCell, 'index'>[] {
  const out: Omit<MatrixCell, 'index'>[] = [];
  for (const cell of [...SEED_CELLS, ...extra]) {
    const base = {
      record: cell.seed,
      role: SEED_CELLS.includes(cell as Cell) ? cell.role : ('user' as const),
      combination: cell.combination,
      property: cell.property,
      shape: shapeOf(cell.progressCalls),
    };
    const label = cell.seed && !cell.name.startsWith('record ') ? `record ${cell.seed}: ${cell.name}` : cell.name;
    const own = cell.seed ? ('record alphabet' as const) : ('cell alphabet' as const);
    if (cell.faults.length > 0)
      out.push({ ...base, id: slug(`${label} ${own}`), name: `${label} · ${own}`, alphabet: own, faults: cell.faults });
    out.push({ ...base, id: slug(`${label} ${ALL}`), name: `${label} · all faults`, alphabet: ALL, faults: faultVocabulary(additions) });
  }
  return out;
}

/**
 * Every seed cell under each revision pair, each under its record's alphabet and the whole
 * vocabulary: the same policies and the same faults, only the protocol generation changes. Cells
 * are grouped by seed cell and alphabet, the pairs in REVISION_PAIRS order.
 */
export function migrationMatrix(additions: PolicyAdditions = NO_ADDITIONS): Omit<MatrixCell, 'index'>[] {
  const out: Omit<MatrixCell, 'index'>[] = [];
  for (const base of seedMatrix([], additions)) {
    for (const pair of REVISION_PAIRS) {
      const c = base.combination;
      const name = `${base.name} · ${pair.name}`;
      out.push({
        ...base,
        id: slug(`${base.id} ${pair.name}`),
        name,
        combination: { server: { ...c.server, protocol: pair.server }, client: { ...c.client, protocol: pair.client } },
        migration: { cell: base.name, pair: pair.name },
      });
    }
  }
  return out;
}

function subsets<T>(items: readonly T[]): T[][] {
  const out: T[][] = [[]];
  for (const item of items) for (const s of [...out]) out.push([...s, item]);
  return out.sort((a, b) => a.length - b.length);
}

export function guardSubsetName(guards: readonly string[]): string {
  return guards.length === 0 ? 'none' : guards.join('+');
}

/** The values the full matrix gives a knob: every value (a set knob: every subset, smallest first);
 *  none where the table holds it at its default (the revision knobs: that matrix is 2025-11-25's). */
function fullValues(k: Knob): (string | string[])[] | null {
  if (k.spec.fullMatrix === 'default') return null;
  return k.spec.subset ? subsets(k.spec.values) : [...k.spec.values];
}

/** Every value of every knob the full matrix varies (models/knobs.ts `fullMatrix`; guards: every
 *  subset; the knobs policy modules declared too), the first knob outermost, under the whole
 *  vocabulary. A cell is named by the knobs it varies with their values, server · client
 *  (`reinit=pin-first … · reconnect=new-session … guards=none`); its id by the values alone. */
export function fullMatrix(additions: PolicyAdditions = NO_ADDITIONS): Omit<MatrixCell, 'index'>[] {
  const varied = (['server', 'client'] as const).flatMap((side) =>
    knobsOf(side, additions).flatMap((k) => {
      const values = fullValues(k);
      return values ? [{ ...k, values }] : [];
    }),
  );
  let product: (string | string[])[][] = [[]];
  for (const k of varied) product = product.flatMap((chosen) => k.values.map((v) => [...chosen, v]));
  return product.map((chosen) => {
    const over = { server: {} as Record<string, unknown>, client: {} as Record<string, unknown> };
    varied.forEach((k, i) => {
      over[k.side][k.knob] = chosen[i];
    });
    const c = combination(over as Parameters<typeof combination>[0], additions);
    const side = (s: 'server' | 'client', named: boolean) =>
      varied
        .filter((k) => k.side === s)
        .map((k) => {
          const v = (c[s] as unknown as Record<string, string | string[]>)[k.knob]!;
          const value = Array.isArray(v) ? guardSubsetName(v) : v;
          return named ? `${k.knob}=${value}` : value;
        })
        .join(' ');
    // The id keeps the bare values (short file names, stable since the first full matrix); the name
    // says which knob each value is of.
    return {
      id: slug(`${side('server', false)} · ${side('client', false)}`),
      name: `${side('server', true)} · ${side('client', true)}`,
      record: null,
      role: 'product' as const,
      alphabet: ALL,
      combination: c,
      faults: faultVocabulary(additions),
      property: null,
      shape: {},
    };
  });
}

function keeps(cut: Cut, c: Combination, additions: PolicyAdditions): boolean {
  for (const side of ['server', 'client'] as const) {
    const policy = c[side] as unknown as Record<string, string | string[]>;
    for (const [knob, values] of Object.entries(cut[side])) {
      const v = policy[knob];
      if (Array.isArray(v)) {
        // A set knob: the same members, in whatever order they were written.
        const want = values.map((x) => guardSubsetName(normalizeSet(side, knob, x === '' ? [] : x.split('+'), additions)));
        if (!want.includes(guardSubsetName(v))) return false;
      } else if (!values.includes(v!)) return false;
    }
  }
  return true;
}

/** The cells of a matrix kind that `cut` keeps, knob values and faults `additions`'s modules registered included. */
export function buildMatrix(
  kind: MatrixKind,
  cut: Cut,
  extra: readonly ExtraCell[] = [],
  additions: PolicyAdditions = NO_ADDITIONS,
): MatrixCell[] {
  const built = kind === 'full' ? fullMatrix(additions) : kind === 'migration' ? migrationMatrix(additions) : seedMatrix(extra, additions);
  // The knobs modules declared take their defaults in cells that do not set them (the records' cells).
  const all =
    additions.knobs.names().length === 0 ? built : built.map((c) => ({ ...c, combination: withModuleKnobs(c.combination, additions) }));
  const cells = all.filter((c) => keeps(cut, c.combination, additions));
  const seen = new Set<string>();
  return cells.map((c, index) => {
    let id = c.id;
    for (let n = 2; seen.has(id); n++) id = `${c.id}-${n}`;
    seen.add(id);
    return { ...c, id, index };
  });
}

/** Shard i of n (1-based): every n-th cell, so that each shard gets a mix of cheap and costly cells. */
export function shardOf<T extends { index: number }>(cells: readonly T[], shard: { index: number; count: number }): T[] {
  return cells.filter((c) => c.index % shard.count === shard.index - 1);
}
